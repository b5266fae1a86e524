import { describe, expect, it } from 'vitest';
import { isScheduleTime, nextScheduleTime, type ScheduleConfig } from '../../../src/workflow/schedule-times.js';

const at = (iso: string) => Date.parse(iso);
const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** The first `n` firings after `from`. */
function firings(config: ScheduleConfig, from: string, n: number): Array<string | null> {
  const out: Array<string | null> = [];
  let after = at(from);
  for (let i = 0; i < n; i++) {
    const next = nextScheduleTime(config, after, 'UTC');
    out.push(iso(next));
    if (next === null) break;
    after = next;
  }
  return out;
}

describe('schedule firings', () => {
  it('keeps a cron wall time across both daylight-saving changes of a zone', () => {
    const berlin = { cron: '0 9 * * *', timeZone: 'Europe/Berlin' };
    expect(firings(berlin, '2026-03-28T00:00:00Z', 2)).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    expect(firings(berlin, '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z']);
  });

  it('fires a skipped wall time an hour later and a repeated one once', () => {
    expect(firings({ cron: '30 2 * * *', timeZone: 'Europe/Berlin' }, '2026-03-28T12:00:00Z', 2)).toEqual(['2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(firings({ cron: '30 2 * * *', timeZone: 'Europe/Berlin' }, '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('honours a cron schedule\'s start and end', () => {
    const bounded = { cron: '0 12 * * *', timeZone: 'UTC', startTime: '2026-05-03 12:00', endTime: '2026-05-04 12:00' };
    expect(firings(bounded, '2026-05-01T00:00:00Z', 3)).toEqual(['2026-05-03T12:00:00.000Z', '2026-05-04T12:00:00.000Z', null]);
  });

  it('repeats by elapsed minutes and hours from the start', () => {
    expect(firings({ repeat: 'minute', interval: 45, startTime: '2026-05-01 10:10', timeZone: 'UTC' }, '2026-05-01T00:00:00Z', 3)).toEqual(['2026-05-01T10:10:00.000Z', '2026-05-01T10:55:00.000Z', '2026-05-01T11:40:00.000Z']);
    expect(firings({ repeat: 'hour', interval: 5, startTime: '2026-05-01 10:00', timeZone: 'UTC' }, '2026-05-02T00:00:00Z', 2)).toEqual(['2026-05-02T01:00:00.000Z', '2026-05-02T06:00:00.000Z']);
  });

  it('repeats days, months and years by the calendar, each counted from the start', () => {
    expect(firings({ repeat: 'day', interval: 3, startTime: '2026-03-27 09:00', timeZone: 'Europe/Berlin' }, '2026-03-28T00:00:00Z', 2)).toEqual(['2026-03-30T07:00:00.000Z', '2026-04-02T07:00:00.000Z']);
    expect(firings({ repeat: 'month', interval: 1, startTime: '2026-01-31 08:00', timeZone: 'UTC' }, '2026-01-31T08:00:00Z', 3)).toEqual(['2026-02-28T08:00:00.000Z', '2026-03-31T08:00:00.000Z', '2026-04-30T08:00:00.000Z']);
    expect(firings({ repeat: 'year', interval: 2, startTime: '2024-02-29 00:00', timeZone: 'UTC', endTime: '2029-01-01 00:00' }, '2024-03-01T00:00:00Z', 3)).toEqual(['2026-02-28T00:00:00.000Z', '2028-02-29T00:00:00.000Z', null]);
  });

  it('repeats on weekdays every n weeks from the week of the start', () => {
    // Wednesday 6 May 2026; Mondays and Fridays every second week.
    const config = { repeat: 'week', interval: 2, weekDays: [1, 5], startTime: '2026-05-06 18:30', timeZone: 'UTC' };
    expect(firings(config, '2026-05-01T00:00:00Z', 4)).toEqual(['2026-05-08T18:30:00.000Z', '2026-05-18T18:30:00.000Z', '2026-05-22T18:30:00.000Z', '2026-06-01T18:30:00.000Z']);
  });

  it('knows its own firings and no others', () => {
    const config = { cron: '*/15 * * * *', timeZone: 'UTC' };
    expect(isScheduleTime(config, at('2026-05-01T10:45:00Z'), 'UTC')).toBe(true);
    expect(isScheduleTime(config, at('2026-05-01T10:50:00Z'), 'UTC')).toBe(false);
    expect(nextScheduleTime({ repeat: 'fortnight', startTime: '2026-05-01 10:00' }, 0, 'UTC')).toBeNull();
    expect(nextScheduleTime({ cron: 'not cron' }, 0, 'UTC')).toBeNull();
  });
});
