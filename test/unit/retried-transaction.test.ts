import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { inRetriedTransaction } from '../../src/db/transaction.js';
import type { SqlDialect } from '../../src/db/dialect/sql-dialect.js';

/** A deadlock as the PostgreSQL driver reports it. */
const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('inRetriedTransaction', () => {
  let dir: string;
  let database: Database;
  let dialect: SqlDialect;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tabularium-retry-'));
    database = openDatabase(`sqlite:${join(dir, 'x.db')}`);
    // The SQLite dialect with PostgreSQL's reading of a deadlock: the engine under test is the retry logic.
    dialect = { ...database.dialect, classifyError: (error) => ((error as { code?: string }).code === '40P01' ? { kind: 'retry' } : { kind: 'other' }) };
    await sql`CREATE TABLE t (n INTEGER)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a transaction the engine aborted again, and keeps nothing of the aborted attempt', async () => {
    let attempts = 0;
    await inRetriedTransaction(database.db, dialect, async (trx) => {
      attempts++;
      await sql`INSERT INTO t (n) VALUES (${attempts})`.execute(trx);
      if (attempts === 1) throw deadlock;
    });
    expect(attempts).toBe(2);
    expect((await sql<{ n: number }>`SELECT n FROM t`.execute(database.db)).rows).toEqual([{ n: 2 }]);
  });

  it('gives up after three attempts, and never retries other errors', async () => {
    let attempts = 0;
    await expect(inRetriedTransaction(database.db, dialect, async () => {
      attempts++;
      throw deadlock;
    })).rejects.toBe(deadlock);
    expect(attempts).toBe(3);
    let others = 0;
    const other = new Error('no such table');
    await expect(inRetriedTransaction(database.db, dialect, async () => {
      others++;
      throw other;
    })).rejects.toBe(other);
    expect(others).toBe(1);
  });
});
