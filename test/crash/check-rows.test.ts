import { describe, expect, it } from 'vitest';
import { checkRows } from './check-rows.js';
import { Ledger } from './ledger.js';
import type { StoredRow, StoredRows } from './stored-rows.js';

/**
 * The crash checker on its own, without a server: it must pass what is whole and name what is
 * not, or the crash trials would pass whatever the server did.
 */

const ids = (tag: string, size: number): string[] => Array.from({ length: size }, (_, n) => `${tag}:${n}`);
const rowsOf = (tag: string, size: number, marker = ''): StoredRow[] => ids(tag, size).map((id, n) => ({ id, batch: tag, n, marker }));
const stored = (rows: StoredRow[]): StoredRows => ({ rows, total: rows.length });

/** Two acknowledged batches (one with an acknowledged update), one create and one update in flight. */
function scenario() {
  const ledger = new Ledger();
  const a = ledger.recordBatchSent('a', 1, 3);
  ledger.recordBatchAcknowledged(a, ids('a', 3));
  const b = ledger.recordBatchSent('b', 1, 2);
  ledger.recordBatchAcknowledged(b, ids('b', 2));
  ledger.recordUpdateSent(a, 'u-a', 'rowIds').state = 'acknowledged';
  ledger.recordUpdateSent(b, 'u-b', 'rows');
  ledger.recordBatchSent('c', 1, 2);
  return { ledger, whole: [...rowsOf('a', 3, 'u-a'), ...rowsOf('b', 2), ...rowsOf('c', 2)] };
}

describe('checkRows', () => {
  it('passes whole batches and settles what was in flight', () => {
    const { ledger, whole } = scenario();
    const result = checkRows(stored(whole), ledger);
    expect(result.violations).toEqual([]);
    expect(result).toMatchObject({ rowsChecked: 7, inFlightBatchesCommitted: 1, inFlightUpdatesNotApplied: 1 });
    expect(ledger.batches.get('c')).toMatchObject({ state: 'committed', rowIds: ids('c', 2) });
    expect(ledger.batches.get('b')!.update!.state).toBe('absent');
  });

  it('passes an in-flight batch that is absent and an in-flight update applied on every row', () => {
    const { ledger, whole } = scenario();
    const rows = whole.filter((r) => r.batch !== 'c').map((r) => (r.batch === 'b' ? { ...r, marker: 'u-b' } : r));
    expect(checkRows(stored(rows), ledger)).toMatchObject({ violations: [], inFlightBatchesAbsent: 1, inFlightUpdatesApplied: 1 });
  });

  it.each([
    ['a row of an acknowledged batch is gone', (rows: StoredRow[]) => rows.filter((r) => r.id !== 'a:1'), /batch a .*partial, only 2 of its 3 rows/],
    ['an acknowledged batch is gone', (rows: StoredRow[]) => rows.filter((r) => r.batch !== 'a'), /batch a .*missing/],
    ['a row is doubled', (rows: StoredRow[]) => [...rows, { ...rows[0], id: 'a:copy' }], /position 0 is stored 2 times \(doubled\)/],
    ['an in-flight batch is partial', (rows: StoredRow[]) => rows.filter((r) => r.id !== 'c:0'), /batch c .*partial, only 1 of its 2 rows/],
    ['an acknowledged update misses a row', (rows: StoredRow[]) => rows.map((r) => (r.id === 'a:2' ? { ...r, marker: '' } : r)), /update u-a was acknowledged.*2 × "u-a", 1 × ""/],
    ['an in-flight update is half applied', (rows: StoredRow[]) => rows.map((r) => (r.id === 'b:0' ? { ...r, marker: 'u-b' } : r)), /update u-b .*in flight at the kill\) is partial/],
    ['a row nobody sent appears', (rows: StoredRow[]) => [...rows, { id: 'x', batch: 'zzz', n: 0, marker: '' }], /batch tag "zzz", which no client sent/],
    ['a row has another id than acknowledged', (rows: StoredRow[]) => rows.map((r) => (r.id === 'b:1' ? { ...r, id: 'other' } : r)), /other ids than it was acknowledged with/],
  ])('fails when %s', (_, tamper, message) => {
    const { ledger, whole } = scenario();
    const result = checkRows(stored(tamper(whole)), ledger);
    expect(result.violations.join('\n')).toMatch(message);
    // Nothing is settled from a check that failed.
    expect(ledger.batches.get('c')!.state).toBe('inFlight');
  });

  it('fails when the live-row count disagrees with the rows listed', () => {
    const { ledger, whole } = scenario();
    expect(checkRows({ rows: whole, total: whole.length + 1 }, ledger).violations).toEqual([expect.stringMatching(/total of 8 live rows, but 7 were listed/)]);
  });

  it('fails when a batch found absent after one restart shows up after a later one', () => {
    const { ledger, whole } = scenario();
    checkRows(stored(whole.filter((r) => r.batch !== 'c')), ledger);
    expect(ledger.batches.get('c')!.state).toBe('absent');
    expect(checkRows(stored(whole), ledger).violations.join('\n')).toMatch(/batch c .*was absent after an earlier restart/);
  });
});
