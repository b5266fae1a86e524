import { DateTime } from 'luxon';

/** An inclusive range of calendar days, as `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

type Resolver = (today: DateTime) => [DateTime, DateTime];

const span = (unit: 'week' | 'month' | 'quarter' | 'year', offset: number): Resolver => (today) => {
  const at = today.plus({ [`${unit}s`]: offset });
  return [at.startOf(unit), at.endOf(unit)];
};
const days = (offset: number): Resolver => (today) => [today.plus({ days: offset }), today.plus({ days: offset })];
const pastDays = (count: number): Resolver => (today) => [today.minus({ days: count - 1 }), today];
const nextDays = (count: number): Resolver => (today) => [today, today.plus({ days: count - 1 })];

/**
 * The public range names with the V2 numbers that stand for them. Weeks start on Monday;
 * `last7Day` is the seven days ending today, `next7Day` the seven starting today.
 */
const RANGES: Array<[name: string, code: number, resolve: Resolver]> = [
  ['today', 1, days(0)],
  ['yesterday', 2, days(-1)],
  ['tomorrow', 3, days(1)],
  ['thisweek', 4, span('week', 0)],
  ['lastweek', 5, span('week', -1)],
  ['nextweek', 6, span('week', 1)],
  ['thismonth', 7, span('month', 0)],
  ['lastmonth', 8, span('month', -1)],
  ['nextmonth', 9, span('month', 1)],
  ['thisquarter', 12, span('quarter', 0)],
  ['lastquarter', 13, span('quarter', -1)],
  ['nextquarter', 14, span('quarter', 1)],
  ['thisyear', 15, span('year', 0)],
  ['lastyear', 16, span('year', -1)],
  ['nextyear', 17, span('year', 1)],
  ['last7day', 21, pastDays(7)],
  ['last14day', 22, pastDays(14)],
  ['last30day', 23, pastDays(30)],
  ['next7day', 31, nextDays(7)],
  ['next14day', 32, nextDays(14)],
  ['next30day', 33, nextDays(30)],
];

const BY_NAME = new Map(RANGES.map(([name, , resolve]) => [name, resolve]));
const BY_CODE = new Map(RANGES.map(([, code, resolve]) => [code, resolve]));

/** The resolver a filter value names, by name (any case) or V2 number; undefined when it names none. */
function resolverFor(value: unknown): Resolver | undefined {
  if (typeof value === 'string') return BY_NAME.get(value.trim().toLowerCase()) ?? (/^\d{1,2}$/.test(value.trim()) ? BY_CODE.get(Number(value)) : undefined);
  if (typeof value === 'number') return BY_CODE.get(value);
  return undefined;
}

/**
 * The days a dynamic date value means at `now` in `timeZone`, or null when the value is not a
 * range name (then it is an ordinary date).
 * @example dynamicDayRange('thisMonth', Date.UTC(2026, 2, 14), 'UTC') // → { from: '2026-03-01', to: '2026-03-31' }
 */
export function dynamicDayRange(value: unknown, now: number, timeZone: string): DayRange | null {
  const resolve = resolverFor(value);
  if (!resolve) return null;
  const today = DateTime.fromMillis(now, { zone: timeZone }).startOf('day');
  const [from, to] = resolve(today);
  return { from: from.toFormat('yyyy-MM-dd'), to: to.toFormat('yyyy-MM-dd') };
}

/** The names clients may use, for messages. */
export const DYNAMIC_DATE_NAMES = 'today, yesterday, tomorrow, thisWeek, lastWeek, nextWeek, thisMonth, lastMonth, nextMonth, thisQuarter, lastQuarter, nextQuarter, thisYear, lastYear, nextYear, last7Day, last14Day, last30Day, next7Day, next14Day, next30Day';

/** Epoch milliseconds of the start of a day in `timeZone`. */
export function startOfDay(day: string, timeZone: string): number {
  return DateTime.fromISO(day, { zone: timeZone }).startOf('day').toMillis();
}

/** Epoch milliseconds of the start of the day after `day` in `timeZone`. */
export function startOfNextDay(day: string, timeZone: string): number {
  return DateTime.fromISO(day, { zone: timeZone }).plus({ days: 1 }).startOf('day').toMillis();
}
