import { AppError } from '../../shared/app-error.js';

/** The 10002 every type raises for a value it cannot take; the message names the field. */
export function badFieldValue(label: string, problem: string): AppError {
  return AppError.invalidValue(`${label}: ${problem}`);
}

const SHOWN_LENGTH = 60;
/** How far `show` looks into a nested value: enough to recognise it, never enough to recurse without bound. */
const SHOWN_DEPTH = 3;
const SHOWN_ITEMS = 5;

function preview(value: unknown, depth: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > SHOWN_LENGTH ? value.slice(0, SHOWN_LENGTH) : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (typeof value !== 'object') return typeof value;
  if (depth >= SHOWN_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, SHOWN_ITEMS).map((item) => preview(item, depth + 1));
    return `[${items.join(',')}${value.length > SHOWN_ITEMS ? ',…' : ''}]`;
  }
  const keys = Object.keys(value);
  const entries = keys.slice(0, SHOWN_ITEMS).map((key) => `${JSON.stringify(key.slice(0, SHOWN_LENGTH))}:${preview((value as Record<string, unknown>)[key], depth + 1)}`);
  return `{${entries.join(',')}${keys.length > SHOWN_ITEMS ? ',…' : ''}}`;
}

/**
 * Short, safe rendering of a rejected value for messages: at most 60 characters, looking at most
 * three levels into arrays and objects, whatever the value's size or depth.
 * @example show({ a: [1, 2] }) // → '{"a":[1,2]}'
 */
export function show(value: unknown): string {
  const text = preview(value, 0);
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 3)}...` : text;
}
