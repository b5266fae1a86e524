import type { Ledger, SentBatch } from './ledger.js';
import type { StoredRow, StoredRows } from './stored-rows.js';

/**
 * Compares what the restarted server holds with what the clients were told: every acknowledged
 * batch whole with the ids it was acknowledged with, no batch partial, nothing doubled, no row
 * nobody sent, every acknowledged update on all its rows and an interrupted one on all or none.
 */

export interface CheckResult {
  /** Each a sentence naming the batch or update and what is wrong; empty when all holds. */
  violations: string[];
  rowsChecked: number;
  /** Writes cut off by the kill, by what the check found. */
  inFlightBatchesCommitted: number;
  inFlightBatchesAbsent: number;
  inFlightUpdatesApplied: number;
  inFlightUpdatesNotApplied: number;
}

function describe(batch: SentBatch): string {
  return `batch ${batch.tag} (${batch.size} rows, ${batch.state} in trial ${batch.trial})`;
}

/** The positions `0…size-1` of a batch's rows: doubled, out of range, or missing ones are violations. */
function checkPositions(batch: SentBatch, rows: StoredRow[], violations: string[]): void {
  const byPosition = new Map<number, StoredRow[]>();
  for (const row of rows) {
    if (!Number.isInteger(row.n) || row.n < 0 || row.n >= batch.size) {
      violations.push(`${describe(batch)}: row ${row.id} has position ${row.n}, outside 0…${batch.size - 1}`);
      continue;
    }
    const copies = byPosition.get(row.n);
    if (copies) copies.push(row);
    else byPosition.set(row.n, [row]);
  }
  for (const [n, copies] of byPosition) {
    if (copies.length > 1) violations.push(`${describe(batch)}: position ${n} is stored ${copies.length} times (doubled): ${copies.map((r) => r.id).join(', ')}`);
  }
  if (byPosition.size < batch.size) violations.push(`${describe(batch)}: partial, only ${byPosition.size} of its ${batch.size} rows are stored`);
  if (batch.rowIds) {
    const moved = rows.filter((row) => batch.rowIds![row.n] !== undefined && batch.rowIds![row.n] !== row.id);
    if (moved.length > 0) violations.push(`${describe(batch)}: ${moved.length} rows have other ids than it was acknowledged with, e.g. position ${moved[0].n} is ${moved[0].id}, acknowledged as ${batch.rowIds[moved[0].n]}`);
  }
}

/** The marker on a batch's rows must follow from its one update: set on all rows, or on none. */
function checkMarkers(batch: SentBatch, rows: StoredRow[], violations: string[]): 'applied' | 'notApplied' | null {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.marker, (counts.get(row.marker) ?? 0) + 1);
  const seen = [...counts.entries()].map(([marker, count]) => `${count} × ${JSON.stringify(marker)}`).join(', ');
  const update = batch.update;
  const expected = update && (update.state === 'acknowledged' || update.state === 'committed') ? update.marker : update?.state === 'inFlight' ? null : '';
  if (expected !== null) {
    if (counts.size !== 1 || !counts.has(expected)) {
      const what = expected === '' ? 'no update of it was applied' : `update ${expected} was ${update!.state}`;
      violations.push(`${describe(batch)}: ${what}, so every row should have marker ${JSON.stringify(expected)}, but the rows have ${seen}`);
    }
    return null;
  }
  if (counts.size === 1 && counts.has(update!.marker)) return 'applied';
  if (counts.size === 1 && counts.has('')) return 'notApplied';
  violations.push(`${describe(batch)}: update ${update!.marker} (${update!.form} form, in flight at the kill) is partial: the rows have ${seen}`);
  return null;
}

export function checkRows(stored: StoredRows, ledger: Ledger): CheckResult {
  const violations: string[] = [];
  const result: CheckResult = { violations, rowsChecked: stored.rows.length, inFlightBatchesCommitted: 0, inFlightBatchesAbsent: 0, inFlightUpdatesApplied: 0, inFlightUpdatesNotApplied: 0 };
  if (stored.total !== stored.rows.length) violations.push(`the list reports a total of ${stored.total} live rows, but ${stored.rows.length} were listed`);

  const ids = new Set<string>();
  const byBatch = new Map<string, StoredRow[]>();
  for (const row of stored.rows) {
    if (ids.has(row.id)) violations.push(`row ${row.id} is listed twice`);
    ids.add(row.id);
    const rows = byBatch.get(row.batch);
    if (rows) rows.push(row);
    else byBatch.set(row.batch, [row]);
  }
  for (const [tag, rows] of byBatch) {
    if (!ledger.batches.has(tag)) violations.push(`${rows.length} rows carry batch tag ${JSON.stringify(tag)}, which no client sent (e.g. row ${rows[0].id})`);
  }

  // Outcomes of in-flight writes are entered in the ledger only once the whole check has passed.
  const resolutions: Array<() => void> = [];
  for (const batch of ledger.batches.values()) {
    const rows = byBatch.get(batch.tag);
    if (!rows) {
      if (batch.state === 'acknowledged' || batch.state === 'committed') violations.push(`${describe(batch)}: missing, none of its rows is stored`);
      if (batch.state === 'inFlight') {
        result.inFlightBatchesAbsent++;
        resolutions.push(() => ledger.resolveBatch(batch, null));
      }
      continue;
    }
    if (batch.state === 'absent') violations.push(`${describe(batch)}: was absent after an earlier restart, but now ${rows.length} of its rows are stored`);
    checkPositions(batch, rows, violations);
    if (batch.state === 'inFlight') {
      result.inFlightBatchesCommitted++;
      const rowIds = [...rows].sort((a, b) => a.n - b.n).map((row) => row.id);
      resolutions.push(() => ledger.resolveBatch(batch, rowIds));
    }
    const outcome = checkMarkers(batch, rows, violations);
    if (outcome) {
      if (outcome === 'applied') result.inFlightUpdatesApplied++;
      else result.inFlightUpdatesNotApplied++;
      resolutions.push(() => (batch.update!.state = outcome === 'applied' ? 'committed' : 'absent'));
    }
  }
  if (violations.length === 0) for (const resolve of resolutions) resolve();
  return result;
}
