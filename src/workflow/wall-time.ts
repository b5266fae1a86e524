import { DateTime } from 'luxon';

/**
 * Wall times: what a clock in a zone shows. Date-field triggers move dates by months and days
 * keeping the wall time; doing that on plain numbers and asking the zone only to turn the result
 * into an instant costs one zone lookup per firing instead of one per step (a sweep computes
 * several firings for each record it reads).
 */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The wall time of an instant in a zone. */
export function wallOf(time: number, zone: string): WallTime {
  const { year, month, day, hour, minute, second, millisecond } = DateTime.fromMillis(time, { zone });
  return { year, month, day, hour, minute, second, millisecond };
}

/** The instant a wall time names in a zone; one a change of offset skips (02:30 on the spring-forward night) is moved on by the gap (03:30). */
export function instantOf(wall: WallTime, zone: string): number {
  return DateTime.fromObject(wall, { zone }).toMillis();
}

/**
 * The wall time `months` on (back when negative), the day clamped to the month's length: 31
 * January one month on is 28 or 29 February.
 */
export function plusMonths(wall: WallTime, months: number): WallTime {
  const index = wall.year * 12 + wall.month - 1 + months;
  const [year, month] = [Math.floor(index / 12), (index % 12) + 1];
  return { ...wall, year, month, day: Math.min(wall.day, daysInMonth(year, month)) };
}

/** The wall time `days` on (back when negative), at the same time of day. */
export function plusDays(wall: WallTime, days: number): WallTime {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The same day at another time. */
export function atTime(wall: WallTime, hour: number, minute: number): WallTime {
  return { ...wall, hour, minute, second: 0, millisecond: 0 };
}
