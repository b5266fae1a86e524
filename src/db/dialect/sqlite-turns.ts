import type Database from 'better-sqlite3';
import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDialectConfig } from 'kysely';

/** How long a transaction waits for its turn to write before it fails (as `busy_timeout` does for single statements). */
const TURN_WAIT_MS = 5_000;
/** Attempts made on the next turn of the event loop before waiting a millisecond between them. */
const QUICK_ATTEMPTS = 16;
/** The busy timeout of statements outside transactions (SQLite's own handler, which sleeps in the thread). */
export const STATEMENT_BUSY_TIMEOUT_MS = 5_000;

/**
 * Transactions on SQLite begin with `begin immediate` (the write lock at once) instead of Kysely's
 * deferred `begin`, and wait for their turn without holding the event loop.
 *
 * In one process nothing changes: its one writing connection runs one transaction at a time and
 * always gets the lock at once. With several processes on the file (HTTP_PROCESSES > 1, a CLI
 * command beside the server), a deferred transaction that read before another process committed
 * could not write any more (SQLITE_BUSY_SNAPSHOT, which no busy handler retries); an immediate one
 * either gets the lock or fails before it did anything. It then tries again on the next turns of
 * the event loop, then every millisecond: SQLite's busy handler would sleep in the thread, and every other request of the process
 * (reads on the second connection among them) would wait with it.
 *
 * A single writing statement outside a transaction (a job claim, a token's last use) takes its turn
 * the same way: it runs in an immediate transaction of its own. Run bare, it would wait for the lock
 * in SQLite's busy handler, asleep in the thread, for as long as the other process writes (a batch
 * of a thousand records: tens of milliseconds), and after the lock is free until the handler's next
 * look (up to 100 ms later).
 */
export class TurnTakingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly writer: Database.Database,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new TurnTakingSqliteDriver(this.settings, this.writer);
  }
}

/**
 * Statements that write rows and may run inside a transaction (not VACUUM, PRAGMA, BEGIN…). A
 * statement led by a WITH clause may be a read: it runs as it comes (today every such write runs
 * inside a transaction anyway).
 */
const ROW_WRITE = /^\s*(insert|update|delete|replace)\b/i;

class TurnTakingSqliteDriver extends SqliteDriver {
  private turnTaking: DatabaseConnection | undefined;

  constructor(
    settings: SqliteDialectConfig,
    private readonly writer: Database.Database,
  ) {
    super(settings);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.turnTaking ??= {
      executeQuery: <R>(query: CompiledQuery) => this.executeInTurn<R>(connection, query),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.turnTaking;
  }

  /** A writing statement outside a transaction runs in one of its own, begun when it is this process's turn. */
  private async executeInTurn<R>(connection: DatabaseConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.writer.inTransaction || !ROW_WRITE.test(query.sql)) return connection.executeQuery<R>(query);
    await this.takeTurn();
    try {
      const result = await connection.executeQuery<R>(query);
      this.writer.exec('commit');
      return result;
    } catch (error) {
      if (this.writer.inTransaction) this.writer.exec('rollback');
      throw error;
    }
  }

  override async beginTransaction(_connection: DatabaseConnection): Promise<void> {
    await this.takeTurn();
  }

  /** Waits until this connection holds the write lock, in an immediate transaction. */
  private async takeTurn(): Promise<void> {
    const deadline = Date.now() + TURN_WAIT_MS;
    for (let attempt = 1; ; attempt++) {
      if (this.tryBegin()) return;
      if (Date.now() > deadline) throw Object.assign(new Error(`another process held the database's write lock for over ${TURN_WAIT_MS} ms`), { code: 'SQLITE_BUSY' });
      // Most transactions hold the lock for well under a millisecond: look again as soon as this
      // process's other work allows, then, if it is still held, every millisecond.
      await new Promise((resolve) => (attempt <= QUICK_ATTEMPTS ? setImmediate(resolve) : setTimeout(resolve, 1)));
    }
  }

  /** `begin immediate` without SQLite's sleeping busy handler: true when this connection now holds the write lock. */
  private tryBegin(): boolean {
    // exec, not pragma(): pragma() prepares a statement per call, freed only by the garbage
    // collector, and a prepared busy_timeout takes effect when prepared, not when run again.
    this.writer.exec('PRAGMA busy_timeout = 0');
    try {
      this.writer.exec('begin immediate');
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
      throw error;
    } finally {
      this.writer.exec(`PRAGMA busy_timeout = ${STATEMENT_BUSY_TIMEOUT_MS}`);
    }
  }
}
