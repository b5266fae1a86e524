import { AppError } from '../../shared/app-error.js';
import { ErrorCode, type ErrorCodeValue } from '../../shared/error-codes.js';

/** The RFC 6749 §5.2 `error` each of our OAuth codes is sent with on the token and revoke endpoints. */
const RFC_ERRORS: Partial<Record<ErrorCodeValue, string>> = {
  [ErrorCode.OAuthInvalidRequest]: 'invalid_request',
  [ErrorCode.OAuthRedirectMismatch]: 'invalid_grant',
  [ErrorCode.OAuthInvalidCode]: 'invalid_grant',
  [ErrorCode.OAuthAuthorizationExpired]: 'invalid_grant',
  [ErrorCode.OAuthRefreshInvalid]: 'invalid_grant',
  [ErrorCode.OAuthRefreshRefused]: 'invalid_grant',
  [ErrorCode.OAuthAuthorizationNotFound]: 'invalid_grant',
  [ErrorCode.OAuthClientCredentials]: 'invalid_client',
  [ErrorCode.OAuthClientIpRestricted]: 'invalid_client',
  [ErrorCode.OAuthClientDisabled]: 'invalid_client',
  [ErrorCode.OAuthClientUnavailable]: 'unauthorized_client',
  [ErrorCode.OAuthInvalidScope]: 'invalid_scope',
  [ErrorCode.OAuthScopeChanged]: 'invalid_scope',
  [ErrorCode.OAuthUserForbidden]: 'access_denied',
};

/** The RFC 6749 `error` of a refusal (`invalid_request` for anything not an OAuth code). */
export function rfcErrorOf(code: ErrorCodeValue): string {
  return RFC_ERRORS[code] ?? 'invalid_request';
}

/** A refusal of the OAuth flow with its 600xxx code. */
export function oauthRefusal(code: ErrorCodeValue, message: string, status = 400): AppError {
  return new AppError(code, status, message);
}

export { ErrorCode };
