import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { firingsIn, joinWindows, periodsBack, periodWindows } from '../../../src/workflow/date-trigger-repeats.js';
import { valueWindow, type DateTriggerConfig, type ValueWindow } from '../../../src/workflow/date-trigger-times.js';

const at = (iso: string) => Date.parse(iso);
const iso = (times: number[]) => times.map((t) => new Date(t).toISOString());
const config = (rest: Partial<DateTriggerConfig>): DateTriggerConfig => ({ worksheetId: 'w', dateFieldId: 'f', ...rest });

/** Whether a value lies in a window (days: the value's day in the zone; instants: after < value ≤ upTo). */
function holds(window: ValueWindow, value: string, zone: string): boolean {
  if ('days' in window) {
    const day = value.length === 10 ? value : DateTime.fromISO(value, { zone }).toFormat('yyyy-MM-dd');
    return day >= window.days.from && day <= window.days.to;
  }
  const time = Date.parse(value);
  return time > window.instants.after && time <= window.instants.upTo;
}

describe('repeating date-field triggers', () => {
  it('fires a month end on each month, clamped to shorter months without drifting', () => {
    const monthly = config({ repeat: 'month', time: '09:00' });
    expect(iso(firingsIn(monthly, '2020-01-31', 'UTC', at('2024-01-01T00:00:00Z'), at('2024-05-01T00:00:00Z')))).toEqual(['2024-01-31T09:00:00.000Z', '2024-02-29T09:00:00.000Z', '2024-03-31T09:00:00.000Z', '2024-04-30T09:00:00.000Z']);
    expect(iso(firingsIn(monthly, '2020-01-31', 'UTC', at('2025-02-01T00:00:00Z'), at('2025-03-01T00:00:00Z')))).toEqual(['2025-02-28T09:00:00.000Z']);
    // The value itself is its first firing; nothing before it.
    expect(iso(firingsIn(monthly, '2020-01-31', 'UTC', at('2019-12-01T00:00:00Z'), at('2020-02-01T00:00:00Z')))).toEqual(['2020-01-31T09:00:00.000Z']);
  });

  it('fires 29 February yearly on 28 February in years without one, and keeps the local time across daylight-saving changes', () => {
    const yearly = config({ repeat: 'year', time: '09:00' });
    expect(iso(firingsIn(yearly, '2020-02-29', 'Europe/Berlin', at('2021-01-01T00:00:00Z'), at('2025-01-01T00:00:00Z')))).toEqual(['2021-02-28T08:00:00.000Z', '2022-02-28T08:00:00.000Z', '2023-02-28T08:00:00.000Z', '2024-02-29T08:00:00.000Z']);
    const dayBefore = config({ repeat: 'year', time: '09:00', offset: { direction: 'before', amount: 1, unit: 'day' } });
    // 31 March 1990 → 30 March 2026 at 09:00 in Berlin: summer time (since 29 March), so 07:00 UTC.
    expect(iso(firingsIn(dayBefore, '1990-03-31', 'Europe/Berlin', at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z')))).toEqual(['2026-03-30T07:00:00.000Z']);
    // A DateTime keeps its wall time: 09:00 in Berlin, 30 minutes before, in winter and in summer.
    const halfHourBefore = config({ repeat: 'month', offset: { direction: 'before', amount: 30, unit: 'minute' } });
    expect(iso(firingsIn(halfHourBefore, '2025-12-15T08:00:00.000Z', 'Europe/Berlin', at('2026-03-01T00:00:00Z'), at('2026-05-01T00:00:00Z')))).toEqual(['2026-03-15T07:30:00.000Z', '2026-04-15T06:30:00.000Z']);
  });

  it('fires a value that does not repeat once, as before', () => {
    expect(iso(firingsIn(config({ time: '09:00' }), '2020-01-31', 'UTC', at('2020-01-01T00:00:00Z'), at('2030-01-01T00:00:00Z')))).toEqual(['2020-01-31T09:00:00.000Z']);
    expect(firingsIn(config({ repeat: 'none' }), '2020-01-31', 'UTC', at('2021-01-01T00:00:00Z'), at('2030-01-01T00:00:00Z'))).toEqual([]);
    expect(firingsIn(config({ repeat: 'month' }), '', 'UTC', 0, at('2030-01-01T00:00:00Z'))).toEqual([]);
  });

  it('moves a window of values back whole periods, with the days a month end clamps; counts the periods back to a value; joins overlapping windows', () => {
    const base: ValueWindow = { days: { from: '2026-02-28', to: '2026-02-28' } };
    expect(periodWindows(base, 0, 'UTC')).toEqual([base]);
    // 28 February is February's last day: 29 February 2020 lands on it.
    expect(periodWindows(base, 72, 'UTC')).toEqual([{ days: { from: '2020-02-28', to: '2020-02-29' } }]);
    expect(periodWindows({ days: { from: '2026-02-27', to: '2026-02-27' } }, 1, 'UTC')).toEqual([{ days: { from: '2026-01-27', to: '2026-01-27' } }]);
    // An instant on 30 April at 09:00-09:01: 30 and 31 March at that time; in Berlin no change of offset on those days, no margin.
    const april = { instants: { after: at('2026-04-30T07:00:00Z'), upTo: at('2026-04-30T07:01:00Z') } };
    expect(periodWindows(april, 1, 'Europe/Berlin')).toEqual([
      { instants: { after: at('2026-03-30T07:00:00Z'), upTo: at('2026-03-30T07:01:00Z') } },
      { instants: { after: at('2026-03-31T07:00:00Z'), upTo: at('2026-03-31T07:01:00Z') } },
    ]);
    // Moved back onto 29 March (the change to summer time), the window takes an hour more either side.
    expect(periodWindows({ instants: { after: at('2026-04-29T07:00:00Z'), upTo: at('2026-04-29T07:01:00Z') } }, 1, 'Europe/Berlin')).toEqual([{ instants: { after: at('2026-03-29T06:00:00Z'), upTo: at('2026-03-29T08:01:00Z') } }]);
    expect(periodsBack(base, '2020-02-29', 12, 'UTC')).toBe(6);
    expect(periodsBack(base, '2020-03-01', 12, 'UTC')).toBe(5);
    expect(periodsBack(base, '2026-02-01', 12, 'UTC')).toBe(0);
    expect(periodsBack(april, '2026-03-31T07:00:30.000Z', 1, 'Europe/Berlin')).toBe(1);
    expect(joinWindows([{ days: { from: '2026-02-01', to: '2026-02-02' } }, { days: { from: '2026-01-01', to: '2026-01-10' } }, { days: { from: '2026-01-05', to: '2026-01-20' } }])).toEqual([{ days: { from: '2026-01-01', to: '2026-01-20' } }, { days: { from: '2026-02-01', to: '2026-02-02' } }]);
    expect(joinWindows([{ instants: { after: 10, upTo: 20 } }, { instants: { after: 0, upTo: 10 } }])).toEqual([{ instants: { after: 0, upTo: 20 } }]);
  });

  // Every value that fires in a window lies in one of the windows a sweep reads for it: values on
  // the days a month end clamps and on either side, windows around month ends and daylight-saving
  // changes (Berlin: 28 March and 31 October 2027).
  const zone = 'Europe/Berlin';
  const days2020 = [1, 14, 28, 29, 30, 31].flatMap((day) => Array.from({ length: 12 }, (_, m) => DateTime.fromObject({ year: 2020, month: m + 1, day }, { zone })).filter((d) => d.isValid).map((d) => d.toFormat('yyyy-MM-dd')));
  const cases = [
    ['a Date, monthly, a day before at 09:00', 'month', 'date', (day: string) => day, { offset: { direction: 'before', amount: 1, unit: 'day' }, time: '09:00' }],
    ['a Date, yearly, on the day at 02:30 (skipped on the spring-forward night)', 'year', 'date', (day: string) => day, { time: '02:30' }],
    ['a DateTime at 02:30 local, monthly, 30 minutes before', 'month', 'datetime', (day: string) => DateTime.fromISO(`${day}T02:30`, { zone }).toUTC().toISO()!, { offset: { direction: 'before', amount: 30, unit: 'minute' } }],
    ['a DateTime at 10:00 local, yearly, 2 days after', 'year', 'datetime', (day: string) => DateTime.fromISO(`${day}T10:00`, { zone }).toUTC().toISO()!, { offset: { direction: 'after', amount: 2, unit: 'day' } }],
  ] as const;
  for (const [name, repeat, kind, valueOf, rest] of cases) {
    it(`reads every value that fires in a window: ${name}`, () => {
      const trigger = config({ repeat, ...rest });
      const months = repeat === 'month' ? 1 : 12;
      const values = days2020.map(valueOf);
      const days = ['2027-02-28', '2027-03-01', '2027-03-02', '2027-03-28', '2027-03-31', '2027-04-30', '2027-10-31'];
      let fired = 0;
      for (const day of days) {
        for (let hour = 0; hour < 24; hour += 3) {
          const after = DateTime.fromISO(day, { zone }).plus({ hours: hour }).toMillis();
          const upTo = after + 3 * 3_600_000;
          const base = valueWindow(trigger, kind, after, upTo, zone);
          for (const value of values) {
            if (firingsIn(trigger, value, zone, after, upTo).length === 0) continue;
            fired++;
            expect(base).not.toBeNull();
            const read = Array.from({ length: periodsBack(base!, value, months, zone) + 1 }, (_, k) => periodWindows(base!, k * months, zone)).flat();
            expect(read.some((window) => holds(window, value, zone)), `${value} fires in (${new Date(after).toISOString()}, ${new Date(upTo).toISOString()}]`).toBe(true);
          }
        }
      }
      expect(fired).toBeGreaterThan(3);
    });
  }
});
