import { ErrorCode, type ErrorCodeValue } from './error-codes.js';

/** The body of every response, success or failure. */
export interface Envelope<T> {
  success: boolean;
  error_code: number;
  error_msg: string;
  data: T;
}

/** Wraps business data in a success envelope. */
export function ok<T>(data: T): Envelope<T> {
  return { success: true, error_code: ErrorCode.Success, error_msg: '', data };
}

/** A failure envelope; `data` is always null on failure. */
export function failure(code: ErrorCodeValue, message: string): Envelope<null> {
  return { success: false, error_code: code, error_msg: message, data: null };
}
