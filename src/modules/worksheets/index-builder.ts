import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { createReadIndex, dropReadIndex } from './row-table-ddl.js';
import * as repository from './repository.js';
import { readIndexKey, readIndexName, type ReadIndexColumns } from './worksheet-schema.js';

/** A read index a list would have liked: on these columns of the worksheet's row table. */
export interface IndexRequest {
  worksheetId: string;
  columns: ReadIndexColumns;
}

/**
 * Builds the indexes reads ask for, outside of any request. A read never runs DDL: it asks here
 * and is served without the index (a scan and a sort) until the index exists. One build runs at a
 * time per process, on PostgreSQL with CREATE INDEX CONCURRENTLY (writers are not blocked), and
 * `IF NOT EXISTS` on both engines, so several processes asking for the same index, or a request
 * repeated after a restart, cost nothing more. A built index is recorded in `row_indexes` and the
 * worksheet's cached schema is dropped (`onBuilt`), so the next read knows it exists.
 *
 * @example builder.request({ worksheetId, columns: { key: [statusId, priceId], include: [] } }); await builder.idle();
 */
export class IndexBuilder {
  private readonly pending = new Map<string, IndexRequest>();
  /** Columns built (or found built) by this process, so that they are not asked for again. */
  private readonly built = new Set<string>();
  private running: Promise<void> | null = null;
  /** The worksheet whose index is being built right now. */
  private building: string | null = null;
  private closed = false;

  constructor(
    private readonly db: Executor,
    private readonly dialect: SqlDialect,
    private readonly log: FastifyBaseLogger,
    private readonly onBuilt: (worksheetId: string) => void,
  ) {}

  /** Asks for an index; returns at once. */
  request(index: IndexRequest): void {
    const key = `${index.worksheetId}/${readIndexKey(index.columns)}`;
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

  /**
   * Resolves when no build for this worksheet is pending or running in this process. A structure
   * change waits for it first: on PostgreSQL a DROP COLUMN and a CREATE INDEX CONCURRENTLY on the
   * same table wait for each other until the deadlock detector aborts one (after a second). Other
   * processes' builds are met by retrying the change (`inRetriedTransaction`).
   */
  async settle(worksheetId: string): Promise<void> {
    const busy = () => this.building === worksheetId || [...this.pending.values()].some((index) => index.worksheetId === worksheetId);
    while (this.running && busy()) await this.running;
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
      const name = readIndexName(index.worksheetId, index.columns);
      this.building = index.worksheetId;
      try {
        await createReadIndex(this.db, this.dialect, index.worksheetId, index.columns);
        await repository.insertReadIndex(this.db, { name, worksheetId: index.worksheetId, columns: index.columns, createdAt: Date.now() });
        this.built.add(key);
        this.onBuilt(index.worksheetId);
      } catch (error) {
        // A worksheet or column removed meanwhile, or a build PostgreSQL gave up to break a deadlock
        // with a structure change: the read path works without the index, and a later read asks
        // again. A failed concurrent build leaves an invalid index behind, which would make
        // IF NOT EXISTS skip it for good: drop it.
        this.log.warn({ err: error, worksheetId: index.worksheetId, columns: index.columns }, 'building a read index failed');
        await dropReadIndex(this.db, name).catch(() => undefined);
      } finally {
        this.building = null;
      }
    }
  }
}
