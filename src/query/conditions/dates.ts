import { DateTime } from 'luxon';
import { AppError } from '../../shared/app-error.js';
import { fieldTypeOf } from '../../fields/registry.js';
import { DYNAMIC_DATE_NAMES, dynamicDayRange, startOfDay, startOfNextDay, type DayRange } from '../dynamic-dates.js';
import type { ConditionInput, ConditionKind } from './condition-kind.js';
import { periodConditions, type Period } from './date-range.js';

const DAY = /^(\d{4}-\d{2}-\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?/;

function refuse(input: ConditionInput, value: unknown): never {
  throw AppError.invalidValue(
    `${input.label}: ${JSON.stringify(value)?.slice(0, 40)} is neither a date (YYYY-MM-DD), a date-time, nor a date range (${DYNAMIC_DATE_NAMES})`,
  );
}

/** The days a value names: a range name, a day, or the day of a date-time. */
function dayRangeOf(input: ConditionInput, value: unknown): DayRange {
  const dynamic = dynamicDayRange(value, input.now, input.timeZone);
  if (dynamic) return dynamic;
  const match = typeof value === 'string' ? (DAY.exec(value.trim()) ?? DATE_TIME.exec(value.trim())) : null;
  if (!match || !DateTime.fromISO(match[1]).isValid) refuse(input, value);
  return { from: match[1], to: match[1] };
}

function nextDay(day: string): string {
  return DateTime.fromISO(day, { zone: 'UTC' }).plus({ days: 1 }).toFormat('yyyy-MM-dd');
}

/** Date (stored `YYYY-MM-DD`): periods are whole days, compared as text. */
export const dateConditions: ConditionKind = periodConditions((input, value): Period<string> => {
  const days = dayRangeOf(input, value);
  return { start: days.from, end: nextDay(days.to) };
});

const dateTimeType = fieldTypeOf('16');

/**
 * DateTime and the system times (stored as epoch milliseconds): a day or range name means whole
 * days in TIME_ZONE (`eq today` is all of today); a date-time means the minute, second or
 * millisecond it is written to.
 */
export const dateTimeConditions: ConditionKind = periodConditions((input, value): Period<number> => {
  const text = typeof value === 'string' ? value.trim() : value;
  const dynamic = dynamicDayRange(text, input.now, input.timeZone);
  if (dynamic) return { start: startOfDay(dynamic.from, input.timeZone), end: startOfNextDay(dynamic.to, input.timeZone) };
  if (typeof text === 'string' && DAY.test(text)) {
    if (!DateTime.fromISO(text).isValid) refuse(input, value);
    return { start: startOfDay(text, input.timeZone), end: startOfNextDay(text, input.timeZone) };
  }
  const match = typeof text === 'string' ? DATE_TIME.exec(text) : null;
  if (!match) refuse(input, value);
  const meta = input.field.meta ?? { config: {} };
  const start = dateTimeType.write!(text, meta as never, { timeZone: input.timeZone, label: input.label }) as number;
  const step = match[5] ? 1 : match[4] ? 1000 : 60_000;
  return { start, end: start + step };
});

const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

function clock(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/** Time (stored `HH:mm:ss`): `HH:mm` means that minute, `HH:mm:ss` that second. */
export const timeConditions: ConditionKind = periodConditions((input, value): Period<string> => {
  const match = typeof value === 'string' ? TIME.exec(value.trim()) : null;
  const [h, m, s] = match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : [NaN, NaN, NaN];
  if (!match || h > 23 || m > 59 || s > 59) {
    throw AppError.invalidValue(`${input.label}: expected a time as HH:mm or HH:mm:ss, got ${JSON.stringify(value)?.slice(0, 40)}`);
  }
  const start = h * 3600 + m * 60 + s;
  return { start: clock(start), end: clock(start + (match[3] === undefined ? 60 : 1)) };
});
