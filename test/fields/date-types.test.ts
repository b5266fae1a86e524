import { describe, expect, it } from 'vitest';
import { ctx, expectBadValue, fieldOf, readerOf, writerOf } from './field-fixture.js';

describe('15 Date', () => {
  const write = writerOf('15');
  const read = readerOf('15');

  it('takes a strict YYYY-MM-DD and reads it back unchanged', () => {
    for (const day of ['2024-03-25', '2024-02-29', '1999-12-31', '0001-01-01']) {
      expect(write(day)).toBe(day);
      expect(read(day)).toBe(day);
    }
    expect(read(null)).toBeNull();
  });

  it('refuses days that do not exist and every other form with 10002', () => {
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '2024-3-5', '2024/03/25', '25.03.2024', '2024-03-25T00:00:00Z', '2024-03-25 10:00', ' 2024-03-25', 20240325, true]) {
      expect(expectBadValue(() => write(bad)).message).toContain('YYYY-MM-DD');
    }
  });
});

describe('16 DateTime', () => {
  const write = writerOf('16');
  const read = readerOf('16');
  const field = fieldOf('16');
  const shanghai = { ...ctx, timeZone: 'Asia/Shanghai' };
  const iso = (value: unknown, context = ctx) => read(write(value, field, context));

  it('honours Z and explicit offsets whatever the time zone', () => {
    expect(iso('2024-03-25T07:52:58Z', shanghai)).toBe('2024-03-25T07:52:58.000Z');
    expect(iso('2024-03-25T07:52:58.123Z')).toBe('2024-03-25T07:52:58.123Z');
    expect(iso('2024-03-25T15:52:58+08:00')).toBe('2024-03-25T07:52:58.000Z');
    expect(iso('2024-03-25T02:22:58-05:30', shanghai)).toBe('2024-03-25T07:52:58.000Z');
    expect(iso('2024-03-25T15:52:58+0800')).toBe('2024-03-25T07:52:58.000Z');
  });

  it('reads a date-time without offset in the configured time zone', () => {
    expect(iso('2024-03-25 15:52:58', shanghai)).toBe('2024-03-25T07:52:58.000Z');
    expect(iso('2024-03-25T15:52:58', shanghai)).toBe('2024-03-25T07:52:58.000Z');
    expect(iso('2024-03-25 15:52', shanghai)).toBe('2024-03-25T07:52:00.000Z');
    expect(iso('2024-03-25 15:52:58')).toBe('2024-03-25T15:52:58.000Z');
    expect(iso('2024-07-01 12:00', { ...ctx, timeZone: 'Europe/Berlin' })).toBe('2024-07-01T10:00:00.000Z');
    expect(iso('2024-01-01 12:00', { ...ctx, timeZone: 'Europe/Berlin' })).toBe('2024-01-01T11:00:00.000Z');
  });

  it('keeps fractions of a second to the millisecond', () => {
    expect(iso('2024-03-25T07:52:58.5Z')).toBe('2024-03-25T07:52:58.500Z');
    expect(iso('2024-03-25T07:52:58.057Z')).toBe('2024-03-25T07:52:58.057Z');
    expect(iso('2024-03-25T07:52:58.1239999Z')).toBe('2024-03-25T07:52:58.123Z');
    expect(iso('2024-03-25 15:52:58.250', shanghai)).toBe('2024-03-25T07:52:58.250Z');
  });

  it('keeps years before 100 (Date.UTC would read them as 19xx)', () => {
    expect(iso('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(iso('0096-02-29 12:00')).toBe('0096-02-29T12:00:00.000Z');
    expect(iso('0099-12-31T23:59:59+00:00')).toBe('0099-12-31T23:59:59.000Z');
  });

  it('stores epoch milliseconds and reads ISO 8601 UTC with milliseconds and Z', () => {
    expect(write('2024-03-25T07:52:58Z', field, ctx)).toBe(Date.UTC(2024, 2, 25, 7, 52, 58));
    expect(read(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(read(null)).toBeNull();
  });

  it('refuses what is not a date-time with 10002 naming the field', () => {
    for (const bad of ['2024-02-30 10:00', '2024-03-25', '2024-03-25 25:00', '2024-03-25 10:60', '2024-03-25 24:00', '2024-03-25T24:00:00Z', 'yesterday', '25/03/2024 10:00', 1711353178000, true, {}]) {
      expect(expectBadValue(() => write(bad, field, ctx)).message).toContain('ISO 8601');
    }
  });
});

describe('46 Time', () => {
  const write = writerOf('46');
  const read = readerOf('46');
  const withSeconds = fieldOf('46', { subType: 6 });

  it('takes HH:mm or HH:mm:ss and stores HH:mm:ss', () => {
    expect(write('09:30')).toBe('09:30:00');
    expect(write('23:59:59')).toBe('23:59:59');
    expect(write('00:00')).toBe('00:00:00');
  });

  it('reads HH:mm, or HH:mm:ss when subType is 6', () => {
    expect(read('09:30:15')).toBe('09:30');
    expect(read('09:30:15', fieldOf('46', { subType: 1 }))).toBe('09:30');
    expect(read('09:30:15', withSeconds)).toBe('09:30:15');
    expect(read(null)).toBeNull();
  });

  it('refuses what is not a time of day with 10002', () => {
    for (const bad of ['24:00', '9:30', '09:60', '09:30:60', '0930', '09:30 PM', '2024-03-25 09:30', 930, true]) {
      expect(expectBadValue(() => write(bad)).message).toContain('HH:mm');
    }
  });
});
