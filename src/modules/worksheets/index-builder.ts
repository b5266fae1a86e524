import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { createSortIndex } from './row-table-ddl.js';
import * as repository from './repository.js';

/** A sort index a read would have liked: on `column` of the worksheet's row table. */
export interface IndexRequest {
  worksheetId: string;
  column: string;
  /** The field the column belongs to, flagged `indexed` once the index exists; null for system columns. */
  fieldId: string | null;
}

/**
 * Builds the indexes reads ask for, outside of any request. A read never runs DDL: it asks here
 * and is served without the index (a scan and a sort) until the index exists. One build runs at a
 * time per process, on PostgreSQL with CREATE INDEX CONCURRENTLY (writers are not blocked), and
 * `IF NOT EXISTS` on both engines, so several processes asking for the same index, or a request
 * repeated after a restart, cost nothing more. When an index is built the worksheet's cached schema
 * is dropped (`onBuilt`), so the next read sees the field flagged `indexed`.
 *
 * @example builder.request({ worksheetId, column: fieldId, fieldId }); await builder.idle();
 */
export class IndexBuilder {
  private readonly pending = new Map<string, IndexRequest>();
  /** Columns built (or found built) by this process, so that they are not asked for again. */
  private readonly built = new Set<string>();
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Executor,
    private readonly dialect: SqlDialect,
    private readonly log: FastifyBaseLogger,
    private readonly onBuilt: (worksheetId: string) => void,
  ) {}

  /** Asks for an index; returns at once. */
  request(index: IndexRequest): void {
    const key = `${index.worksheetId}/${index.column}`;
    if (this.closed || this.built.has(key) || this.pending.has(key)) return;
    this.pending.set(key, index);
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when every index asked for so far has been built (or failed and was logged). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops taking requests and waits for the build in progress. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.clear();
    await this.idle();
  }

  private async drain(): Promise<void> {
    // Let the request that asked finish first: builds run after the response, not before it.
    await new Promise((resolve) => setImmediate(resolve));
    for (const [key, index] of this.pending) {
      this.pending.delete(key);
      try {
        await createSortIndex(this.db, this.dialect, index.worksheetId, index.column);
        if (index.fieldId) await repository.markIndexed(this.db, index.fieldId);
        this.built.add(key);
        this.onBuilt(index.worksheetId);
      } catch (error) {
        // A worksheet deleted meanwhile, or a concurrent build by another process: the read path
        // works without the index, and a later read asks again.
        this.log.warn({ err: error, worksheetId: index.worksheetId, column: index.column }, 'building a sort index failed');
      }
    }
  }
}
