import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Database as OpenDatabase } from '../../src/db/connection.js';

let dir: string | undefined;
let opened: OpenDatabase | undefined;
let other: Database.Database | undefined;

afterEach(async () => {
  other?.close();
  await opened?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  other = opened = dir = undefined;
});

/** The database of a server, and a second connection to its file standing for another process. */
function twoProcesses(): { database: OpenDatabase; otherProcess: Database.Database } {
  dir = mkdtempSync(join(tmpdir(), 'turns-'));
  const file = join(dir, 't.db');
  opened = openDatabase(`sqlite:${file}`);
  other = new Database(file);
  other.exec('create table counter (n integer)');
  other.exec('insert into counter values (0)');
  return { database: opened, otherProcess: other };
}

it('waits for its turn to write while another process holds the lock, without holding the event loop', async () => {
  const { database, otherProcess } = twoProcesses();
  otherProcess.exec('begin immediate');
  otherProcess.exec('update counter set n = n + 1');
  const events: string[] = [];
  const written = database.db.transaction().execute(async (trx) => {
    events.push('began');
    await sql`update counter set n = n + 10`.execute(trx);
  });
  // While the transaction waits for the lock, timers of this process still fire.
  await new Promise((resolve) => setTimeout(resolve, 30));
  events.push('timer');
  otherProcess.exec('commit');
  await written;
  expect(events).toEqual(['timer', 'began']);
  expect(otherProcess.prepare('select n from counter').get()).toEqual({ n: 11 });
});

it('holds the write lock from its first statement, so a read followed by a write cannot be overtaken (a deferred begin fails there: SQLITE_BUSY_SNAPSHOT)', async () => {
  const { database, otherProcess } = twoProcesses();
  otherProcess.pragma('busy_timeout = 0');
  let otherWrite = 'not tried';
  await database.db.transaction().execute(async (trx) => {
    await sql`select n from counter`.execute(trx);
    try {
      otherProcess.exec('update counter set n = n + 100');
      otherWrite = 'written';
    } catch (error) {
      otherWrite = (error as { code: string }).code;
    }
    await sql`update counter set n = n + 1`.execute(trx);
  });
  expect(otherWrite).toBe('SQLITE_BUSY');
  expect(otherProcess.prepare('select n from counter').get()).toEqual({ n: 1 });
});

it('runs a single writing statement outside a transaction in its own turn too, without holding the event loop', async () => {
  const { database, otherProcess } = twoProcesses();
  otherProcess.exec('begin immediate');
  otherProcess.exec('update counter set n = n + 1');
  const events: string[] = [];
  const written = sql`update counter set n = n + 10`.execute(database.db).then(() => events.push('written'));
  // Bare, the statement would sleep in SQLite's busy handler (the thread held) until the lock is free.
  for (let turn = 0; turn < 40; turn++) await new Promise((resolve) => setImmediate(resolve));
  events.push('event loop ran');
  otherProcess.exec('commit');
  await written;
  expect(events).toEqual(['event loop ran', 'written']);
  expect(otherProcess.prepare('select n from counter').get()).toEqual({ n: 11 });
});

it('rolls back a single writing statement that fails, and leaves no transaction open', async () => {
  const { database, otherProcess } = twoProcesses();
  otherProcess.exec('create unique index counter_n on counter (n)');
  otherProcess.exec('insert into counter values (5)');
  await expect(sql`update counter set n = 5 where n = 0`.execute(database.db)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
  await sql`update counter set n = 7 where n = 0`.execute(database.db);
  // The lock was given back: the other process writes at once.
  otherProcess.pragma('busy_timeout = 0');
  otherProcess.exec('update counter set n = n + 1 where n = 5');
  expect(otherProcess.prepare('select n from counter order by n').all()).toEqual([{ n: 6 }, { n: 7 }]);
});
