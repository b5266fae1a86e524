import { describe, expect, it } from 'vitest';
import { dateTriggerTime, valueWindow, type DateTriggerConfig } from '../../../src/workflow/date-trigger-times.js';

const at = (iso: string) => Date.parse(iso);
const config = (rest: Partial<DateTriggerConfig>): DateTriggerConfig => ({ worksheetId: 'w', dateFieldId: 'f', ...rest });

describe('date-field trigger times', () => {
  it('fires a day value at its time, moved by the offset, in the zone', () => {
    const dayBefore = config({ offset: { direction: 'before', amount: 1, unit: 'day' }, time: '09:00' });
    expect(dateTriggerTime(dayBefore, '2026-03-30', 'Europe/Berlin')).toBe(at('2026-03-29T07:00:00Z'));
    expect(dateTriggerTime(config({}), '2026-03-30', 'UTC')).toBe(at('2026-03-30T00:00:00Z'));
    expect(dateTriggerTime(config({ offset: { direction: 'after', amount: 90, unit: 'minute' }, time: '23:00' }), '2026-03-30', 'UTC')).toBe(at('2026-03-31T00:30:00Z'));
  });

  it('moves a date-time by the offset, and sets the time of day only for offsets of days or more', () => {
    expect(dateTriggerTime(config({ offset: { direction: 'before', amount: 2, unit: 'hour' }, time: '09:00' }), '2026-05-01T10:15:00.000Z', 'UTC')).toBe(at('2026-05-01T08:15:00Z'));
    expect(dateTriggerTime(config({ offset: { direction: 'after', amount: 1, unit: 'week' }, time: '09:00' }), '2026-05-01T10:15:00.000Z', 'UTC')).toBe(at('2026-05-08T09:00:00Z'));
    expect(dateTriggerTime(config({ offset: { direction: 'after', amount: 1, unit: 'month' } }), '2026-01-31T10:15:00.000Z', 'UTC')).toBe(at('2026-02-28T10:15:00Z'));
    expect(dateTriggerTime(config({}), '', 'UTC')).toBeNull();
    expect(dateTriggerTime(config({}), 'soon', 'UTC')).toBeNull();
  });

  it('turns a window of firings into exactly the days that fire in it, or none', () => {
    const dayBefore = config({ offset: { direction: 'before', amount: 1, unit: 'day' }, time: '09:00' });
    expect(valueWindow(dayBefore, 'date', at('2026-05-01T08:59:00Z'), at('2026-05-01T09:00:00Z'), 'UTC')).toEqual({ days: { from: '2026-05-02', to: '2026-05-02' } });
    expect(valueWindow(dayBefore, 'date', at('2026-05-01T09:00:00Z'), at('2026-05-01T09:01:00Z'), 'UTC')).toBeNull();
    expect(valueWindow(dayBefore, 'date', at('2026-05-01T00:00:00Z'), at('2026-05-04T00:00:00Z'), 'UTC')).toEqual({ days: { from: '2026-05-02', to: '2026-05-04' } });
  });

  it('turns a window of firings into the instants moved back by the offset (calendar offsets with a margin)', () => {
    const halfHourBefore = config({ offset: { direction: 'before', amount: 30, unit: 'minute' } });
    expect(valueWindow(halfHourBefore, 'datetime', at('2026-05-01T09:00:00Z'), at('2026-05-01T09:01:00Z'), 'UTC')).toEqual({ instants: { after: at('2026-05-01T09:30:00Z'), upTo: at('2026-05-01T09:31:00Z') } });
    const dayAfter = config({ offset: { direction: 'after', amount: 1, unit: 'day' } });
    expect(valueWindow(dayAfter, 'datetime', at('2026-05-02T09:00:00Z'), at('2026-05-02T09:01:00Z'), 'UTC')).toEqual({ instants: { after: at('2026-05-01T08:00:00Z'), upTo: at('2026-05-01T10:01:00Z') } });
  });
});
