import { sql, type SqlBool } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ScopedRows } from '../../src/access/index.js';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { listRows, type SortTerm } from '../../src/modules/records/repository.js';
import { EVERY_ROW, predicateOf } from '../../src/query/index.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';

/**
 * A list's statement is built once per shape (filter, columns, sort): later pages and other values
 * of the same filter reuse its text with their own parameters, and still read the right rows.
 */
describeEachEngine('list statements by shape', (engine) => {
  let testDatabase: TestDatabase;
  let database: Database;
  const table = 'ws_shape_test';
  const columns = ['id', 'price', 'status'];
  const source = () => ({ db: database.db, reader: database.reader });
  const cheaperThan = (price: number) => predicateOf(sql<SqlBool>`${sql.ref('price')} < ${price}`) as ScopedRows;
  // Kysely exports the select builder's type, not its class: its prototype is reached through one.
  const selectBuilders = () => Object.getPrototypeOf(database.db.selectFrom('ws_shape_test' as never)) as { compile(): unknown };
  const byStatusThenPrice: SortTerm[] = [
    { column: 'status', ascending: true, optionOrder: ['b', 'a'] },
    { column: 'price', ascending: false },
  ];

  beforeAll(async () => {
    testDatabase = await engine.create();
    database = openDatabase(testDatabase.url);
    await sql`CREATE TABLE ws_shape_test (id TEXT PRIMARY KEY, _deleted_at BIGINT, price REAL, status TEXT)`.execute(database.db);
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: `r${i}`, _deleted_at: i === 9 ? 1 : null, price: i, status: i % 2 ? 'a' : 'b' }));
    await database.db.insertInto('ws_shape_test' as never).values(rows as never).execute();
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it('builds a filtered, sorted list once, then reads other values and pages of it with the same text', async () => {
    const compiles = vi.spyOn(selectBuilders(), 'compile');
    try {
      const first = await listRows(source(), table, columns, cheaperThan(6), byStatusThenPrice, 2, 0);
      expect(first.map((row) => row.id)).toEqual(['r4', 'r2']);
      // The filter alone, then the whole statement.
      expect(compiles).toHaveBeenCalledTimes(2);
      const later = await listRows(source(), table, columns, cheaperThan(9), byStatusThenPrice, 3, 4);
      expect(later.map((row) => row.id)).toEqual(['r0', 'r7', 'r5']);
      // Only the filter: the statement's text was kept.
      expect(compiles).toHaveBeenCalledTimes(3);
    } finally {
      compiles.mockRestore();
    }
  });

  it('builds an unfiltered list once, then builds nothing for its other pages', async () => {
    const compiles = vi.spyOn(selectBuilders(), 'compile');
    try {
      const bySort: SortTerm[] = [{ column: 'price', ascending: true }];
      expect((await listRows(source(), table, columns, EVERY_ROW as ScopedRows, bySort, 3, 0)).map((row) => row.id)).toEqual(['r0', 'r1', 'r2']);
      expect((await listRows(source(), table, columns, EVERY_ROW as ScopedRows, bySort, 3, 6)).map((row) => row.id)).toEqual(['r6', 'r7', 'r8']);
      expect(compiles).toHaveBeenCalledTimes(1);
    } finally {
      compiles.mockRestore();
    }
  });
});
