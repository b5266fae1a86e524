import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connection.js';

let dir: string | undefined;
let opened: Database | undefined;

afterEach(async () => {
  await opened?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  opened = dir = undefined;
});

async function cacheSizes(database: Database): Promise<{ writer: unknown; reader: unknown }> {
  const writer = (await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(database.db)).rows[0].cache_size;
  const reader = (await database.reader.read('PRAGMA cache_size', []))[0].cache_size;
  return { writer, reader };
}

it('gives both SQLite connections (writer and reader) the page cache it is told, in kibibytes as SQLite counts', async () => {
  dir = mkdtempSync(join(tmpdir(), 'cache-'));
  opened = openDatabase(`sqlite:${join(dir, 't.db')}`, { sqliteCacheMb: 20 });
  expect(await cacheSizes(opened)).toEqual({ writer: -20 * 1024, reader: -20 * 1024 });
});

it('gives them 64 MB when not told', async () => {
  dir = mkdtempSync(join(tmpdir(), 'cache-'));
  opened = openDatabase(`sqlite:${join(dir, 't.db')}`);
  expect(await cacheSizes(opened)).toEqual({ writer: -64 * 1024, reader: -64 * 1024 });
});
