import { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresDialect } from '../../src/db/dialect/postgres.js';
import type { SqlDialect } from '../../src/db/dialect/sql-dialect.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';

/**
 * PostgreSQL's row reader names the statements it reads a second time (up to PG_NAMED_READS), so
 * the server parses and plans them once per connection. One connection here, so that
 * `pg_prepared_statements` (which shows the asking session's statements) sees them all.
 */
describeEachEngine(
  'PostgreSQL reads prepared once per connection',
  (engine) => {
    let database: TestDatabase;
    const opened: SqlDialect[] = [];
    const open = (namedReads: number): SqlDialect => {
      const dialect = createPostgresDialect(database.url, 1, namedReads);
      opened.push(dialect);
      return dialect;
    };
    // A new text every time, so that this read is never named itself.
    let asked = 0;
    const prepared = async (dialect: SqlDialect) =>
      (await dialect.rows!.read(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'tabularium_read_%' ORDER BY name /* ${++asked} */`, [])).map(
        (row) => `${String(row.name)}: ${String(row.statement)}`,
      );

    beforeAll(async () => {
      database = await engine.create();
      const setup = open(0);
      await setup.rows!.read('CREATE TABLE probe (id TEXT PRIMARY KEY, label TEXT)', []);
      await setup.rows!.read("INSERT INTO probe VALUES ('a', 'first'), ('b', 'second')", []);
    });
    afterAll(async () => {
      // A dialect's pool ends with the query builder that uses it.
      for (const dialect of opened) await new Kysely({ dialect: dialect.kyselyDialect }).destroy();
      await database.drop();
    });

    it('names a text read a second time, and reads the same rows through the name', async () => {
      const dialect = open(2);
      const byId = 'SELECT id, label FROM probe WHERE id = $1';
      expect(await dialect.rows!.read(byId, ['a'])).toEqual([{ id: 'a', label: 'first' }]);
      expect(await prepared(dialect)).toEqual([]);
      expect(await dialect.rows!.read(byId, ['b'])).toEqual([{ id: 'b', label: 'second' }]);
      expect(await prepared(dialect)).toEqual([`tabularium_read_1: ${byId}`]);
      expect(await dialect.rows!.read(byId, ['a'])).toEqual([{ id: 'a', label: 'first' }]);
    });

    it('keeps reading right through a name after the table changed', async () => {
      const dialect = open(2);
      const labels = 'SELECT label FROM probe ORDER BY id';
      await dialect.rows!.read(labels, []);
      expect(await dialect.rows!.read(labels, [])).toEqual([{ label: 'first' }, { label: 'second' }]);
      await dialect.rows!.read('ALTER TABLE probe ADD COLUMN extra TEXT', []);
      await dialect.rows!.read("INSERT INTO probe (id, label) VALUES ('c', 'third')", []);
      expect(await dialect.rows!.read(labels, [])).toEqual([{ label: 'first' }, { label: 'second' }, { label: 'third' }]);
      expect(await prepared(dialect)).toEqual([`tabularium_read_1: ${labels}`]);
    });

    it('names no more than the limit, and none with 0', async () => {
      const one = open(1);
      for (const text of ['SELECT 1 AS x', 'SELECT 2 AS x', 'SELECT 1 AS x', 'SELECT 2 AS x']) await one.rows!.read(text, []);
      expect(await prepared(one)).toEqual(['tabularium_read_1: SELECT 1 AS x']);
      const none = open(0);
      for (const text of ['SELECT 1 AS x', 'SELECT 1 AS x', 'SELECT 1 AS x']) await none.rows!.read(text, []);
      expect(await prepared(none)).toEqual([]);
    });
  },
  { engine: 'postgres', why: 'prepared statements are the PostgreSQL row reader’s' },
);
