import { DateTime } from 'luxon';
import { atTime, instantOf, plusDays, plusMonths, wallOf } from './wall-time.js';

/**
 * When a date-field trigger (type 6) fires for a record, and which field values fire in a window.
 * Its stored config (as the definitions module prepares it): `{worksheetId, dateFieldId, offset:
 * {direction: on|before|after, amount, unit: minute|hour|day|week|month}, time?: 'HH:mm', repeat}`.
 *
 * The firing of a value: a Date value (a day) is taken at `time` (00:00 when none) in the zone; the
 * offset moves it (days, weeks and months keep the wall time); a DateTime value is moved by the
 * offset, and with `time` and a unit of days or more (or no offset) the firing is at `time` of the
 * day it lands on. So every value of one day fires at the same moment whenever `time` sets it
 * ("whole days"); otherwise each value fires at its own instant moved by the offset ("instants").
 * With `repeat` (`month`, `year`) a value fires again on each anniversary (`date-trigger-repeats.ts`).
 */
export interface DateTriggerConfig {
  worksheetId: string;
  dateFieldId: string;
  offset?: { direction?: string; amount?: number; unit?: string };
  time?: string;
  /** `none` (or absent), `month` or `year`. */
  repeat?: string;
}

const UNITS: Readonly<Record<string, 'minutes' | 'hours' | 'days' | 'weeks' | 'months'>> = { minute: 'minutes', hour: 'hours', day: 'days', week: 'weeks', month: 'months' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The offset as a signed luxon duration. */
function shiftOf(config: DateTriggerConfig): { unit: 'minutes' | 'hours' | 'days' | 'weeks' | 'months'; amount: number } {
  const offset = config.offset ?? {};
  const sign = offset.direction === 'before' ? -1 : offset.direction === 'after' ? 1 : 0;
  return { unit: UNITS[offset.unit ?? 'day'] ?? 'days', amount: sign * Math.max(0, Math.floor(offset.amount ?? 0)) };
}

function timeOfDay(config: DateTriggerConfig): { hour: number; minute: number } | null {
  const match = /^(\d{2}):(\d{2})$/.exec(config.time ?? '');
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

/** Whether every value of one day fires at one moment (`time` sets the hour), so that a window is a set of days. */
export function firesByDay(config: DateTriggerConfig, valueKind: 'date' | 'datetime'): boolean {
  if (valueKind === 'date') return true;
  const { unit, amount } = shiftOf(config);
  return timeOfDay(config) !== null && (amount === 0 || (unit !== 'minutes' && unit !== 'hours'));
}

/**
 * The firing (epoch ms) of a field value as the record reads it (`YYYY-MM-DD`, or an ISO date-time),
 * or null when the value is empty or no date.
 * @example dateTriggerTime({ worksheetId, dateFieldId, offset: { direction: 'before', amount: 1, unit: 'day' }, time: '09:00' }, '2026-12-24', 'Europe/Berlin') // 23 December 09:00 in Berlin
 */
export function dateTriggerTime(config: DateTriggerConfig, value: unknown, zone: string): number | null {
  return occurrenceFirings(config, value, zone)?.(0) ?? null;
}

/**
 * The firings of a field value's occurrences, the value parsed once: the returned function gives
 * the firing of the value moved `months` on (0: the value itself; a month end clamped: 31 January
 * one month on is 28 or 29 February), keeping the wall time in the zone. Null when the value is
 * empty or no date.
 */
export function occurrenceFirings(config: DateTriggerConfig, value: unknown, zone: string): ((months: number) => number) | null {
  if (typeof value !== 'string' || value === '') return null;
  const isDay = DAY.test(value);
  const parsed = DateTime.fromISO(value, { zone });
  if (!parsed.isValid) return null;
  const [start, startTime] = [wallOf(parsed.toMillis(), zone), parsed.toMillis()];
  const time = timeOfDay(config);
  const { unit, amount } = shiftOf(config);
  const elapsed = unit === 'minutes' || unit === 'hours';
  const timeOfLanding = !isDay && time !== null && firesByDay(config, 'datetime');
  return (months) => {
    // The day moves first, then gets its time: 02:30 on a day whose 02:30 exists, whatever the value's day had.
    let wall = months === 0 ? start : plusMonths(start, months);
    if (isDay) wall = atTime(wall, time?.hour ?? 0, time?.minute ?? 0);
    // Days, weeks and months keep the wall time; minutes and hours are elapsed time.
    if (amount !== 0 && !elapsed) wall = unit === 'months' ? plusMonths(wall, amount) : plusDays(wall, amount * (unit === 'weeks' ? 7 : 1));
    if (timeOfLanding) wall = atTime(wall, time.hour, time.minute);
    // A date-time the calendar did not move keeps its own instant (the fall-back hour's wall times name two).
    const at = wall === start ? startTime : instantOf(wall, zone);
    return elapsed ? at + amount * (unit === 'minutes' ? 60_000 : 3_600_000) : at;
  };
}

/** Field values whose firing may fall in a window: a range of days (`YYYY-MM-DD`, both included) or of instants (`after` < value ≤ `upTo`). */
export type ValueWindow = { days: { from: string; to: string } } | { instants: { after: number; upTo: number } };

/**
 * The field values that fire in (`after`, `upTo`], for one indexed range query: exactly the days
 * whose firing is in the window when values fire by day (none: no query), else the instants moved
 * back by the offset (widened by the most a calendar offset can differ: a month's length, a
 * daylight-saving hour); the caller keeps the values whose own firing is in the window.
 */
export function valueWindow(config: DateTriggerConfig, valueKind: 'date' | 'datetime', after: number, upTo: number, zone: string): ValueWindow | null {
  const { unit, amount } = shiftOf(config);
  if (firesByDay(config, valueKind)) {
    // The days that fire in the window lie within a few days of the window moved back by the offset.
    const first = DateTime.fromMillis(after, { zone }).minus({ [unit]: amount }).startOf('day').minus({ days: 4 });
    const last = DateTime.fromMillis(upTo, { zone }).minus({ [unit]: amount }).startOf('day').plus({ days: 4 });
    let from: string | null = null;
    let to: string | null = null;
    for (let day = first; day <= last; day = day.plus({ days: 1 })) {
      const text = day.toFormat('yyyy-MM-dd');
      const fires = dateTriggerTime(config, valueKind === 'date' ? text : day.toISO()!, zone)!;
      if (fires > after && fires <= upTo) {
        from ??= text;
        to = text;
      }
    }
    return from && to ? { days: { from, to } } : null;
  }
  // Minutes and hours are elapsed time (exact); days and weeks keep the wall time (an hour off across a change of offset); months differ in length.
  const slack = unit === 'minutes' || unit === 'hours' ? 0 : (unit === 'months' ? 4 * 86_400_000 : 0) + 3_600_000;
  const back = (time: number) => DateTime.fromMillis(time, { zone }).minus({ [unit]: amount }).toMillis();
  return { instants: { after: back(after) - slack, upTo: back(upTo) + slack } };
}
