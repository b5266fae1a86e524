import { ErrorCode, type ErrorCodeValue } from './error-codes.js';

/**
 * The one failure type of the program. The error handler turns it into the envelope
 * `{success:false, error_code, error_msg, data:null}` with `httpStatus`.
 *
 * @example throw AppError.invalidValue('fields[2].value: "abc" is not a number');
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    readonly httpStatus: number,
    message: string,
    /** Logged, never sent to the client. */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /** A parameter is missing or malformed (10001, HTTP 400). */
  static invalidParameters(message: string): AppError {
    return new AppError(ErrorCode.InvalidParameters, 400, message);
  }

  /** A parameter is well-formed but its value is not acceptable (10002, HTTP 400). */
  static invalidValue(message: string): AppError {
    return new AppError(ErrorCode.InvalidValue, 400, message);
  }

  /** The thing addressed does not exist or was deleted (10007, HTTP 404). */
  static notFound(message: string): AppError {
    return new AppError(ErrorCode.NotFound, 404, message);
  }

  /** The caller may not do this (10005, HTTP 403). */
  static permissionDenied(message: string): AppError {
    return new AppError(ErrorCode.PermissionDenied, 403, message);
  }

  /** A unique name or key is taken (10006, HTTP 409). */
  static alreadyExists(message: string): AppError {
    return new AppError(ErrorCode.AlreadyExists, 409, message);
  }
}
