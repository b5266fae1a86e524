import { CronExpressionParser } from 'cron-parser';
import { DateTime, IANAZone } from 'luxon';
import { TriggerType } from '../../../workflow/index.js';
import { pick, wholeNumber, type TriggerCheckContext, type TriggerKind, type TriggerProblem } from './trigger-kind.js';

const REPEATS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function timeZoneOf(raw: Record<string, unknown>, at: TriggerCheckContext, problems: TriggerProblem[]): string {
  const zone = pick(raw, 'timeZone', 'timezone', 'time_zone');
  if (zone === undefined || zone === null || zone === '') return at.timeZone;
  if (typeof zone !== 'string' || !IANAZone.isValidZone(zone)) {
    problems.push({ path: 'timeZone', message: `unknown time zone ${JSON.stringify(zone)}; use an IANA name such as "Asia/Shanghai"` });
    return at.timeZone;
  }
  return zone;
}

/** A cron expression: five fields (minute hour day month weekday), six with seconds first, or a macro such as `@daily`. */
function checkCron(expression: unknown, timeZone: string, problems: TriggerProblem[]): string | undefined {
  if (typeof expression !== 'string' || expression.trim() === '') {
    problems.push({ path: 'cron', message: 'must be a cron expression such as "0 9 * * 1-5"' });
    return undefined;
  }
  const cron = expression.trim();
  const fields = cron.split(/\s+/).length;
  if (!cron.startsWith('@') && (fields < 5 || fields > 6)) {
    problems.push({ path: 'cron', message: `"${cron.slice(0, 80)}" has ${fields} fields; a cron expression has 5 (minute hour day-of-month month day-of-week), or 6 with seconds first` });
    return cron;
  }
  try {
    CronExpressionParser.parse(cron, { tz: timeZone });
  } catch (error) {
    problems.push({ path: 'cron', message: `"${cron.slice(0, 80)}": ${(error as Error).message}` });
  }
  return cron;
}

/** A date and time in the schedule's zone (`YYYY-MM-DD HH:mm` or ISO 8601), stored as `YYYY-MM-DD HH:mm` in that zone. */
function timeOf(value: unknown, path: string, timeZone: string, problems: TriggerProblem[]): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = typeof value === 'string' ? DateTime.fromISO(value.trim().replace(' ', 'T'), { zone: timeZone }) : null;
  if (!parsed?.isValid) {
    problems.push({ path, message: `${JSON.stringify(value)} is not a date and time (YYYY-MM-DD HH:mm)` });
    return undefined;
  }
  return parsed.setZone(timeZone).toFormat('yyyy-MM-dd HH:mm');
}

/** Weekdays as 0 (Sunday) to 6, from numbers (7 is Sunday too) or names. */
function weekDaysOf(value: unknown, problems: TriggerProblem[]): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  const days = Array.isArray(value) ? value.map((d) => (typeof d === 'string' && !/^\d+$/.test(d) ? WEEKDAYS.indexOf(d.trim().slice(0, 3).toLowerCase()) : wholeNumber(d))) : [];
  if (!Array.isArray(value) || days.some((d) => d === undefined || d < 0 || d > 7)) {
    problems.push({ path: 'weekDays', message: 'must be a list of weekdays: 0 (Sunday) to 6, or names such as "mon"' });
    return undefined;
  }
  return [...new Set(days.map((d) => d! % 7))].sort((a, b) => a - b);
}

function repeatConfig(raw: Record<string, unknown>, repeatValue: unknown, timeZone: string, problems: TriggerProblem[]): Record<string, unknown> {
  const repeat = String(repeatValue).trim().toLowerCase();
  if (!(REPEATS as readonly string[]).includes(repeat)) problems.push({ path: 'repeat', message: `unknown repeat ${JSON.stringify(repeatValue)}; use ${REPEATS.join(', ')}` });
  const intervalValue = pick(raw, 'interval');
  const interval = intervalValue === undefined ? 1 : wholeNumber(intervalValue);
  if (interval === undefined || interval < 1) problems.push({ path: 'interval', message: 'must be a whole number of at least 1' });
  const weekDays = weekDaysOf(pick(raw, 'weekDays', 'week_days'), problems);
  if (weekDays && repeat !== 'week') problems.push({ path: 'weekDays', message: `only a weekly repeat runs on weekdays; the repeat is ${repeat}` });
  const startTime = timeOf(pick(raw, 'startTime', 'start_time'), 'startTime', timeZone, problems);
  if (startTime === undefined && !problems.some((p) => p.path === 'startTime')) problems.push({ path: 'startTime', message: 'is required: when the first run is (YYYY-MM-DD HH:mm)', missing: true });
  const endTime = timeOf(pick(raw, 'endTime', 'end_time'), 'endTime', timeZone, problems);
  if (startTime && endTime && endTime <= startTime) problems.push({ path: 'endTime', message: `must be after startTime (${startTime})` });
  return { repeat, interval: interval ?? 1, ...(weekDays ? { weekDays } : {}), ...(startTime ? { startTime } : {}), ...(endTime ? { endTime } : {}), timeZone };
}

/**
 * Schedule (public type 5): a cron expression in a time zone (the server's when none is given),
 * or the public repeat form `{repeat, interval, weekDays, startTime, endTime}`.
 */
export const scheduleTrigger: TriggerKind = {
  type: TriggerType.schedule,
  name: 'schedule',
  prepare(raw, at) {
    const problems: TriggerProblem[] = [];
    const timeZone = timeZoneOf(raw, at, problems);
    const cronValue = pick(raw, 'cron', 'cronExpression');
    const repeatValue = pick(raw, 'repeat', 'frequency');
    if (cronValue !== undefined && repeatValue !== undefined) problems.push({ path: 'cron', message: 'give either cron or repeat, not both' });
    if (cronValue !== undefined) {
      const cron = checkCron(cronValue, timeZone, problems);
      const startTime = timeOf(pick(raw, 'startTime', 'start_time'), 'startTime', timeZone, problems);
      const endTime = timeOf(pick(raw, 'endTime', 'end_time'), 'endTime', timeZone, problems);
      return Promise.resolve({ config: { cron, timeZone, ...(startTime ? { startTime } : {}), ...(endTime ? { endTime } : {}) }, problems });
    }
    if (repeatValue !== undefined) return Promise.resolve({ config: repeatConfig(raw, repeatValue, timeZone, problems), problems });
    problems.push({ path: 'cron', message: 'is required: a cron expression (with timeZone), or the repeat form {repeat, interval, startTime}', missing: true });
    return Promise.resolve({ config: { timeZone }, problems });
  },
  worksheetOf: () => null,
};
