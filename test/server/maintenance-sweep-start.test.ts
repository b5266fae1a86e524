import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { openDatabase } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ensureSetup } from '../../src/modules/setup/index.js';
import { SESSION_IDLE_MS } from '../../src/modules/sign-in/index.js';
import { startServer } from '../../src/server.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';

/** The server starts the maintenance sweep (it runs at once, then every SWEEP_INTERVAL_MINUTES), and `close` stops it; 0 turns it off. */
describeEachEngine('maintenance sweep at server start', (engine) => {
  let testDatabase: TestDatabase;

  beforeAll(async () => {
    testDatabase = await engine.create();
    const database = openDatabase(testDatabase.url);
    try {
      await migrateToLatest(database);
      const { setup } = await ensureSetup(database.db, Date.now());
      await database.db.insertInto('sessions').values({ id: 'idle session', account_id: setup.owner.accountId, data: '{}', created_at: Date.now() - SESSION_IDLE_MS - 1000, seen_at: Date.now() - SESSION_IDLE_MS - 1000 }).execute();
    } finally {
      await database.close();
    }
  });
  afterAll(() => testDatabase?.drop());

  const start = async (env: Record<string, string> = {}) =>
    startServer(loadConfig({ DATABASE_URL: testDatabase.url, PORT: '0', LOG_LEVEL: 'silent', FILES_DIR: await mkdtemp(join(tmpdir(), 'tabularium-files-')), ...env }));
  const sessions = async (server: Awaited<ReturnType<typeof start>>) => (await server.database.db.selectFrom('sessions').select('id').execute()).map((row) => row.id);

  it('does not sweep with SWEEP_INTERVAL_MINUTES=0', async () => {
    const server = await start({ SWEEP_INTERVAL_MINUTES: '0' });
    try {
      expect(server.sweep).toBeNull();
      expect(await sessions(server)).toEqual(['idle session']);
    } finally {
      await server.close();
    }
  });

  it('sweeps as it starts and stops on close', async () => {
    const server = await start();
    try {
      expect(server.sweep).not.toBeNull();
      await server.sweep!.idle();
      expect(await sessions(server)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
