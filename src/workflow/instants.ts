import { DateTime } from 'luxon';

/**
 * An instant (epoch ms) from a value of a run: a number of epoch ms, an ISO 8601 date-time (as
 * DateTime fields read), a `YYYY-MM-DD` date (its midnight) or `YYYY-MM-DD HH:mm[:ss]` (as the public
 * service writes them), the last two in `timeZone`. Null when the value is empty or no date.
 * @example instantOf('2026-11-25', 'Europe/Berlin') // 2026-11-24T23:00:00Z in ms
 */
export function instantOf(value: unknown, timeZone: string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  let parsed = DateTime.fromISO(text, { zone: timeZone });
  if (!parsed.isValid) parsed = DateTime.fromSQL(text, { zone: timeZone });
  return parsed.isValid ? parsed.toMillis() : null;
}

/** An instant on the wire: ISO 8601 UTC with milliseconds. */
export function isoOf(instant: number): string {
  return new Date(instant).toISOString();
}
