import { DateTime } from 'luxon';
import { occurrenceFirings, type DateTriggerConfig, type ValueWindow } from './date-trigger-times.js';
import { atTime, daysInMonth, instantOf, plusMonths, wallOf } from './wall-time.js';

/**
 * Repeating date-field triggers (`repeat: month | year`). A value fires at its own firing (as
 * `dateTriggerTime` says) and again on each monthly or yearly anniversary: occurrence `k` is the
 * value moved `k` periods on, then moved by the offset and set to `time` as the value itself is.
 * Occurrence `k` is counted from the value itself, never from the occurrence before, so month ends
 * are clamped without drifting: 31 January → 29 February (28 in other years) → 31 March → 30 April;
 * 29 February yearly → 28 February in years without one. Values move in the trigger's zone keeping
 * their wall time, so a firing stays at its local time whatever the daylight-saving offset.
 *
 * Which values fire in a window of firings: those whose occurrence `k` lies in the window of
 * values that fire at once (`valueWindow`, the base), for some `k`, that is those in the base moved
 * back `k` periods (`periodWindows`). A sweep reads these ranges from the newest period back to the
 * earliest value there is, not every record (`date-sweep-job.ts`).
 */

const PERIOD_MONTHS: Readonly<Record<string, number>> = { month: 1, year: 12 };
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_FORMAT = 'yyyy-MM-dd';
const HOUR_MS = 3_600_000;

/** The months from one occurrence to the next, or null when each value fires once. */
export function repeatMonths(config: DateTriggerConfig): number | null {
  return PERIOD_MONTHS[config.repeat ?? ''] ?? null;
}

const monthIndex = (time: number, zone: string) => {
  const at = DateTime.fromMillis(time, { zone });
  return at.year * 12 + at.month;
};

/**
 * The firings (epoch ms) of a field value in (`after`, `upTo`], oldest first: its one firing when it
 * does not repeat, else each occurrence's. Each is a run of its own (`date:<rowId>:<firing>`).
 * @example firingsIn({ …, repeat: 'month', time: '09:00' }, '2020-01-31', 'UTC', Date.parse('2026-02-01'), Date.parse('2026-04-01')) // 28 Feb and 31 Mar 2026 at 09:00
 */
export function firingsIn(config: DateTriggerConfig, value: unknown, zone: string, after: number, upTo: number): number[] {
  const firingOf = occurrenceFirings(config, value, zone);
  if (!firingOf) return [];
  const first = firingOf(0);
  const months = repeatMonths(config);
  if (months === null) return first > after && first <= upTo ? [first] : [];
  // Occurrence k fires in the month k periods after the first firing's, or the month after (a day
  // or hour offset from a clamped month end): none before this k fires after `after`.
  const firings: number[] = [];
  for (let k = Math.max(0, Math.floor((monthIndex(after, zone) - monthIndex(first, zone) - 1) / months)); ; k++) {
    const at = firingOf(k * months);
    if (at > upTo) return firings;
    if (at > after) firings.push(at);
  }
}

const dayText = (year: number, month: number, day: number) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** A day `YYYY-MM-DD` moved `months` on (back when negative), clamped; or, with `toMonthEnd`, that month's last day. */
function shiftDay(day: string, months: number, toMonthEnd = false): string {
  const [year, month, date] = day.split('-').map(Number);
  const moved = plusMonths({ year, month, day: toMonthEnd ? 31 : date, hour: 0, minute: 0, second: 0, millisecond: 0 }, months);
  return dayText(moved.year, moved.month, moved.day);
}

const isMonthEnd = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return date === daysInMonth(year, month);
};

/** Whether the zone's offset changes within a day of `time` (a daylight-saving change): wall times there may be an hour off. */
function offsetChangesNear(time: number, zone: string): boolean {
  return DateTime.fromMillis(time - 86_400_000, { zone }).offset !== DateTime.fromMillis(time + 86_400_000, { zone }).offset;
}

/**
 * The values whose occurrence `months` on lies in the window `base`, as value windows (a superset:
 * the caller checks each value's firings). Moving a value on keeps its day and wall time, so the
 * base moved back holds them, except for days a month end clamps (30 and 31 January land on 28
 * February): when the base ends on the last day of a month, those later days of the earlier month
 * are read too, at the base's times of day. Instants take an hour more near a change of offset (a
 * wall time skipped or repeated).
 * @example periodWindows({ days: { from: '2026-02-28', to: '2026-02-28' } }, 1, 'UTC') // [{ days: { from: '2026-01-28', to: '2026-01-31' } }]
 */
export function periodWindows(base: ValueWindow, months: number, zone: string): ValueWindow[] {
  if (months === 0) return [base];
  if ('days' in base) return [{ days: { from: shiftDay(base.days.from, -months), to: shiftDay(base.days.to, -months, isMonthEnd(base.days.to)) } }];
  const [after, upTo] = [wallOf(base.instants.after, zone), wallOf(base.instants.upTo, zone)];
  const [from, to] = [instantOf(plusMonths(after, -months), zone), instantOf(plusMonths(upTo, -months), zone)];
  const slack = offsetChangesNear(from, zone) || offsetChangesNear(to, zone) ? HOUR_MS : 0;
  const windows: ValueWindow[] = [{ instants: { after: from - slack, upTo: to + slack } }];
  const back = plusMonths(upTo, -months);
  if (upTo.day !== daysInMonth(upTo.year, upTo.month)) return windows;
  // The base ends on a month's last day: the earlier month's later days land on it, at their own times.
  const sameDay = after.year === upTo.year && after.month === upTo.month && after.day === upTo.day;
  for (let day = back.day + 1; day <= daysInMonth(back.year, back.month); day++) {
    const end = instantOf({ ...back, day }, zone);
    const start = sameDay ? instantOf({ ...after, year: back.year, month: back.month, day }, zone) : instantOf(atTime({ ...back, day }, 0, 0), zone) - 1;
    const margin = slack || (offsetChangesNear(end, zone) ? HOUR_MS : 0);
    windows.push({ instants: { after: start - margin, upTo: end + margin } });
  }
  return windows;
}

/**
 * The most periods back whose windows still reach `value` (a field value not after the base's
 * end): the periods from that one to the base are the only ones the value and later values can
 * fire by. 0 when only the base does.
 */
export function periodsBack(base: ValueWindow, value: string, months: number, zone: string): number {
  const parsed = DateTime.fromISO(value, { zone });
  const [point, end] = 'days' in base ? [DAY.test(value) ? value : parsed.toFormat(DAY_FORMAT), base.days.to] : [parsed.toMillis(), base.instants.upTo];
  const reachedBy = (k: number) => {
    const last = periodWindows(base, k * months, zone).at(-1)!;
    return 'days' in last ? point <= last.days.to : Number(point) <= last.instants.upTo;
  };
  const endIndex = typeof end === 'string' ? Number(end.slice(0, 4)) * 12 + Number(end.slice(5, 7)) : monthIndex(end, zone);
  let k = Math.max(0, Math.floor((endIndex - (parsed.year * 12 + parsed.month)) / months));
  while (k > 0 && !reachedBy(k)) k--;
  while (reachedBy(k + 1)) k++;
  return k;
}

const lowerOf = (window: ValueWindow) => ('days' in window ? window.days.from : window.instants.after);

/** Windows in ascending order, those that overlap joined (a window longer than a period overlaps the next one back). */
export function joinWindows(windows: readonly ValueWindow[]): ValueWindow[] {
  const joined: ValueWindow[] = [];
  for (const window of [...windows].sort((a, b) => (lowerOf(a) < lowerOf(b) ? -1 : lowerOf(a) > lowerOf(b) ? 1 : 0))) {
    const last = joined.at(-1);
    if (last && 'days' in last && 'days' in window && window.days.from <= last.days.to) last.days.to = window.days.to > last.days.to ? window.days.to : last.days.to;
    else if (last && 'instants' in last && 'instants' in window && window.instants.after <= last.instants.upTo) last.instants.upTo = Math.max(last.instants.upTo, window.instants.upTo);
    else joined.push('days' in window ? { days: { ...window.days } } : { instants: { ...window.instants } });
  }
  return joined;
}
