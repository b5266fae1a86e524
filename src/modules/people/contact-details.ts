import { AppError } from '../../shared/app-error.js';

/** How people's emails and phone numbers are checked and stored, wherever they come from. */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^\+?[0-9][0-9 ()-]{2,31}$/;

/**
 * An email as stored: trimmed and lower-cased (emails are unique whatever their case); 10002 naming `field` otherwise.
 * @example checkedEmail(' Ada@Example.org ') === 'ada@example.org'
 */
export function checkedEmail(email: string, field = 'email'): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed)) throw AppError.invalidValue(`${field}: "${email}" is not an email address`);
  return trimmed;
}

/** A phone number as stored (trimmed; empty for none); 10002 naming `field` otherwise. */
export function checkedMobile(mobile: string, field = 'mobile'): string {
  const trimmed = mobile.trim();
  if (trimmed !== '' && !MOBILE.test(trimmed)) throw AppError.invalidValue(`${field}: "${mobile}" is not a phone number (digits, spaces, ( ) and -, optionally after +)`);
  return trimmed;
}
