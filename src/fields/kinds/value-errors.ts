import { AppError } from '../../shared/app-error.js';

/** The 10002 every type raises for a value it cannot take; the message names the field. */
export function badFieldValue(label: string, problem: string): AppError {
  return AppError.invalidValue(`${label}: ${problem}`);
}

/** Short, safe rendering of a rejected value for messages. */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
