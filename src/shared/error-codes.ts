/**
 * The error codes of the V3 interface (seed spec, "Errors"), by meaning.
 * Only these values ever reach the wire in `error_code`.
 */
export const ErrorCode = {
  Failed: 0,
  Success: 1,
  RateLimited: 51,
  IpRestricted: 10000,
  InvalidParameters: 10001,
  InvalidValue: 10002,
  PermissionDenied: 10005,
  AlreadyExists: 10006,
  NotFound: 10007,
  TokenNotFound: 10101,
  InvalidSignature: 10102,
  UserTokenInvalid: 10105,
  UserTokenRestricted: 10106,
  DuplicateFieldValue: 100005,
  OptionLimitExceeded: 100006,
  AttachmentLimitExceeded: 100007,
  WorksheetNotInApp: 430013,
  FieldPermissionDenied: 430014,
  AttachmentQuotaExceeded: 430017,
  DraftLimitExceeded: 430018,
  RequiredFieldEmpty: 430019,
  InvalidSubformData: 430020,
  BusinessRuleViolated: 430021,
  WorksheetNotFound: 430022,
  RequestLimitExceeded: 90000,
  DataOperationFailed: 99999,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
