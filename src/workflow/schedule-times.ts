import { CronExpressionParser } from 'cron-parser';
import { DateTime } from 'luxon';

/**
 * When a schedule trigger (type 5) fires. Its stored config (as the definitions module prepares it)
 * is a cron expression in a time zone, `{cron, timeZone, startTime?, endTime?}`, or the public
 * repeat form `{repeat: minute|hour|day|week|month|year, interval, weekDays? (0 Sunday … 6),
 * startTime, endTime?, timeZone}`, start and end as `YYYY-MM-DD HH:mm` in the zone.
 *
 * Times are wall-clock times of the zone: a daily 09:00 stays 09:00 across a daylight-saving change.
 * A wall time the change skips (02:30 on the spring-forward night) fires an hour later, at 03:30; a
 * wall time it repeats (01:30 on the fall-back night) fires once. Minute and hour repeats (and cron
 * minute or hour steps) are steps of elapsed time.
 */
export interface ScheduleConfig {
  cron?: string;
  repeat?: string;
  interval?: number;
  weekDays?: number[];
  startTime?: string;
  endTime?: string;
  timeZone?: string;
}

const WALL_TIME = 'yyyy-MM-dd HH:mm';
const CALENDAR_UNITS: Readonly<Record<string, 'days' | 'weeks' | 'months' | 'years'>> = { day: 'days', week: 'weeks', month: 'months', year: 'years' };
const ELAPSED_MS: Readonly<Record<string, number>> = { minute: 60_000, hour: 3_600_000 };

function wallTime(text: string | undefined, zone: string): DateTime | null {
  if (!text) return null;
  const parsed = DateTime.fromFormat(text, WALL_TIME, { zone });
  return parsed.isValid ? parsed : null;
}

function nextCron(config: ScheduleConfig, after: number, zone: string, start: DateTime | null): number | null {
  // The first firing may be at the start itself: iterate from just before it.
  const from = start ? Math.max(after, start.toMillis() - 1) : after;
  try {
    return CronExpressionParser.parse(config.cron!, { currentDate: new Date(from), tz: zone }).next().getTime();
  } catch {
    return null;
  }
}

/** The first of `occurrence(0), occurrence(1), …` (increasing) after `after`, searched from about `estimate`. */
function firstAfter(occurrence: (k: number) => number, after: number, estimate: number): number {
  let k = Math.max(0, Math.floor(estimate) - 1);
  while (k > 0 && occurrence(k) > after) k -= 1;
  while (occurrence(k) <= after) k += 1;
  return occurrence(k);
}

/** Weekly on given weekdays, every `interval` weeks counted from the week (Sunday first) of the start. */
function nextOnWeekDays(start: DateTime, interval: number, weekDays: number[], after: number): number {
  const sunday = start.minus({ days: start.weekday % 7 }).startOf('day');
  const at = (week: number, day: number) => sunday.plus({ weeks: week * interval, days: day }).set({ hour: start.hour, minute: start.minute }).toMillis();
  let week = Math.max(0, Math.floor(DateTime.fromMillis(after).diff(sunday, 'weeks').weeks / interval) - 1);
  for (;;) {
    for (const day of weekDays) {
      const time = at(week, day);
      if (time > after && time >= start.toMillis()) return time;
    }
    week += 1;
  }
}

function nextRepeat(config: ScheduleConfig, after: number, start: DateTime): number | null {
  const interval = Math.max(1, Math.floor(config.interval ?? 1));
  const repeat = config.repeat ?? '';
  const origin = start.toMillis();
  if (repeat in ELAPSED_MS) {
    const step = interval * ELAPSED_MS[repeat];
    return after < origin ? origin : origin + (Math.floor((after - origin) / step) + 1) * step;
  }
  const unit = CALENDAR_UNITS[repeat];
  if (!unit) return null;
  if (repeat === 'week' && config.weekDays && config.weekDays.length > 0) return nextOnWeekDays(start, interval, [...config.weekDays].sort((a, b) => a - b), after);
  // Each occurrence is counted from the start (31 January + 1 month is 28 or 29 February, + 2 months 31 March).
  const occurrence = (k: number) => start.plus({ [unit]: k * interval }).toMillis();
  const elapsed = DateTime.fromMillis(after).diff(start, unit).as(unit);
  return firstAfter(occurrence, after, elapsed / interval);
}

/**
 * The first firing of a schedule after `after` (epoch ms), or null when it fires no more (past its
 * end) or cannot be read.
 * @example nextScheduleTime({ cron: '0 9 * * *', timeZone: 'Europe/Berlin' }, Date.UTC(2026, 2, 28, 12), 'UTC') === Date.UTC(2026, 2, 29, 7)
 */
export function nextScheduleTime(config: ScheduleConfig, after: number, defaultZone: string): number | null {
  const zone = config.timeZone || defaultZone;
  const start = wallTime(config.startTime, zone);
  const end = wallTime(config.endTime, zone);
  let next: number | null;
  if (typeof config.cron === 'string' && config.cron.trim() !== '') next = nextCron(config, after, zone, start);
  else if (start) next = nextRepeat(config, after, start);
  else next = null;
  return next !== null && end && next > end.toMillis() ? null : next;
}

/** Whether `time` is one of the schedule's firings (a job planned under an earlier version may not be). */
export function isScheduleTime(config: ScheduleConfig, time: number, defaultZone: string): boolean {
  return nextScheduleTime(config, time - 1, defaultZone) === time;
}
