import { batchRowFields, type CrashSheet } from './crash-sheet.js';
import type { Ledger, SentBatch } from './ledger.js';
import { deriveSeed, SeededRandom } from './seeded-random.js';

/**
 * The load of one trial: a few concurrent clients sending batch creates and batch updates until
 * told to stop, each write entered in the ledger before it is sent and marked acknowledged only
 * on HTTP 200 with error_code 1.
 */

export interface WriterOptions {
  baseUrl: string;
  headers: Record<string, string>;
  sheet: CrashSheet;
  ledger: Ledger;
  /** The run's seed: each client of each trial draws from its own stream derived from it. */
  seed: number;
  trial: number;
  clients: number;
  /** Rows per batch create, both bounds included. */
  batchRows: { min: number; max: number };
  /** Share of a client's writes that are batch updates (when an acknowledged batch is free to update). */
  updateShare: number;
}

export interface WriterStats {
  batchesSent: number;
  batchesAcknowledged: number;
  updatesSent: number;
  updatesAcknowledged: number;
  /** Answers a valid workload should never get (a refusal, a short list of ids, rows reported failed): each is a finding. */
  wrongAnswers: string[];
  /** Writes whose connection broke before an answer came: cut off by the kill. */
  lost: number;
}

export interface RunningWriters {
  /** No client starts another write after this; the ones under way finish or fail with the server. */
  stop(): void;
  finished: Promise<WriterStats>;
}

type Outcome<T> = { kind: 'ack'; data: T } | { kind: 'refused'; detail: string } | { kind: 'lost' };

/** Sends one write; `lost` when the connection broke before an answer arrived (the kill). */
async function send<T>(options: WriterOptions, method: string, path: string, body: unknown): Promise<Outcome<T>> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: options.headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    text = await response.text();
  } catch {
    return { kind: 'lost' };
  }
  let envelope: { success?: boolean; error_code?: number; data?: T } = {};
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    // Not the envelope: reported below as a refusal with the text that came instead.
  }
  if (response.status === 200 && envelope.success === true && envelope.error_code === 1) return { kind: 'ack', data: envelope.data as T };
  return { kind: 'refused', detail: `${method} ${path} was refused with HTTP ${response.status}: ${text.slice(0, 300)}` };
}

export function startBatchWriters(options: WriterOptions): RunningWriters {
  const { ledger, sheet, trial } = options;
  const rowsPath = `/v3/app/worksheets/${sheet.id}/rows/batch`;
  const stats: WriterStats = { batchesSent: 0, batchesAcknowledged: 0, updatesSent: 0, updatesAcknowledged: 0, wrongAnswers: [], lost: 0 };
  let stopped = false;

  async function createBatch(random: SeededRandom, tag: string): Promise<void> {
    const size = random.int(options.batchRows.min, options.batchRows.max);
    const rows = Array.from({ length: size }, (_, n) => ({ fields: batchRowFields(tag, n).map((f) => ({ id: sheet.field[f.id], value: f.value })) }));
    const batch = ledger.recordBatchSent(tag, trial, size);
    stats.batchesSent++;
    const outcome = await send<{ rowIds: string[] }>(options, 'POST', rowsPath, { rows });
    if (outcome.kind === 'ack') {
      if (outcome.data.rowIds.length !== size) stats.wrongAnswers.push(`batch ${tag}: acknowledged with ${outcome.data.rowIds.length} row ids for ${size} rows`);
      ledger.recordBatchAcknowledged(batch, outcome.data.rowIds);
      stats.batchesAcknowledged++;
    } else if (outcome.kind === 'refused') stats.wrongAnswers.push(outcome.detail);
    else stats.lost++;
  }

  async function updateBatch(random: SeededRandom, target: SentBatch, marker: string): Promise<void> {
    const form = random.chance(0.5) ? 'rowIds' : 'rows';
    const update = ledger.recordUpdateSent(target, marker, form);
    stats.updatesSent++;
    const value = [{ id: sheet.field.marker, value: marker }];
    const body = form === 'rowIds' ? { rowIds: target.rowIds, fields: value } : { rows: target.rowIds!.map((id) => ({ id, fields: value })) };
    const outcome = await send<{ successfulRowIds: string[]; failedRowIds: string[] }>(options, 'PATCH', rowsPath, body);
    if (outcome.kind === 'ack') {
      // Every target row is live, so anything reported failed is a finding, not a crash effect.
      if (outcome.data.failedRowIds.length > 0) stats.wrongAnswers.push(`update ${marker} of batch ${target.tag}: rows reported failed: ${outcome.data.failedRowIds.join(', ')}`);
      update.state = 'acknowledged';
      stats.updatesAcknowledged++;
    } else if (outcome.kind === 'refused') stats.wrongAnswers.push(outcome.detail);
    else stats.lost++;
  }

  async function client(index: number): Promise<void> {
    const random = new SeededRandom(deriveSeed(options.seed, trial, index));
    for (let k = 0; !stopped; k++) {
      const name = `t${trial}-c${index}-${k}`;
      const target = random.chance(options.updateShare) ? ledger.takeUpdateTarget((size) => random.int(0, size - 1)) : null;
      await (target ? updateBatch(random, target, `u-${name}`) : createBatch(random, `b-${name}`));
    }
  }

  const clients = Array.from({ length: options.clients }, (_, i) => client(i));
  return {
    stop: () => {
      stopped = true;
    },
    finished: Promise.all(clients).then(() => stats),
  };
}
