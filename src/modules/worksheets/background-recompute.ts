import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { inTransaction } from '../../db/transaction.js';
import { recomputeFields } from './recompute-fields.js';
import * as repository from './repository.js';
import { rowTableName } from './worksheet-schema.js';

/** Computed fields of one worksheet to compute for all its records, in the background. */
export interface RecomputeJob {
  appId: string;
  worksheetId: string;
  fieldIds: string[];
}

/** Records per transaction of a background recompute: short transactions, so writes go on between them. */
const BATCH = 1_000;

/**
 * Computes new or edited computed fields of a worksheet too large to do it inside the structure
 * change's transaction (`COMPUTE_INLINE_MAX_ROWS`): the change commits with the fields marked
 * `recomputing` in their config (the schema shows it), and this computes them a thousand records per
 * transaction, in record-id order, then clears the mark. Writes meanwhile keep the records they touch
 * current as always. One job runs at a time per process; jobs left by a stopped process (fields
 * still marked) are resumed at start, from the beginning.
 */
export class BackgroundRecompute {
  private readonly queue: RecomputeJob[] = [];
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Executor,
    private readonly dialect: SqlDialect,
    private readonly log: FastifyBaseLogger,
    private readonly timeZone: string,
    private readonly onDone: (worksheetId: string) => void,
  ) {}

  start(job: RecomputeJob): void {
    if (this.closed) return;
    this.queue.push(job);
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resumes the jobs marked in the database (fields still `recomputing`). */
  async resume(): Promise<void> {
    const marked = await this.db.selectFrom('fields').innerJoin('worksheets', 'worksheets.id', 'fields.worksheet_id').select(['fields.id as id', 'fields.worksheet_id as worksheetId', 'fields.config as config', 'worksheets.app_id as appId']).execute();
    const jobs = new Map<string, RecomputeJob>();
    for (const row of marked) {
      if (!(JSON.parse(row.config) as Record<string, unknown>).recomputing) continue;
      const job = jobs.get(row.worksheetId) ?? { appId: row.appId, worksheetId: row.worksheetId, fieldIds: [] };
      job.fieldIds.push(row.id);
      jobs.set(row.worksheetId, job);
    }
    for (const job of jobs.values()) this.start(job);
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await this.idle();
  }

  private async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0 && !this.closed) {
      const job = this.queue.shift()!;
      try {
        await this.run(job);
      } catch (error) {
        // The fields stay marked: the job is resumed at the next start.
        this.log.error({ err: error, worksheetId: job.worksheetId, fieldIds: job.fieldIds }, 'recomputing fields in the background failed');
      }
    }
  }

  private async run(job: RecomputeJob): Promise<void> {
    const table = rowTableName(job.worksheetId);
    for (let after = ''; !this.closed; ) {
      const ids = (await sql<{ id: string }>`SELECT id FROM ${sql.table(table)} WHERE id > ${after} ORDER BY id LIMIT ${BATCH}`.execute(this.db)).rows.map((row) => row.id);
      if (ids.length === 0) break;
      // Fields removed meanwhile are skipped: the recompute looks each one up in the current schema.
      await inTransaction(this.db, (trx) => recomputeFields(trx, this.dialect, job.appId, job.worksheetId, new Set(job.fieldIds), { now: Date.now(), timeZone: this.timeZone }, ids));
      after = ids[ids.length - 1];
    }
    if (this.closed) return;
    for (const id of job.fieldIds) {
      const field = await repository.findField(this.db, id);
      if (!field) continue;
      const { recomputing: _done, ...config } = field.config;
      await repository.replaceField(this.db, { ...field, config });
    }
    this.onDone(job.worksheetId);
  }
}
