import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { startServer } from '../../src/server.js';

it('opens SQLite with the share of SQLITE_CACHE_MB that falls to each of the HTTP processes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cache-share-'));
  const server = await startServer(
    loadConfig({ DATABASE_URL: `sqlite:${join(dir, 't.db')}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', FILES_DIR: join(dir, 'files'), WORKERS: '0', HTTP_PROCESSES: '2', SQLITE_CACHE_MB: '40' }),
  );
  try {
    const writer = (await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(server.database.db)).rows[0].cache_size;
    const reader = (await server.database.reader.read('PRAGMA cache_size', []))[0].cache_size;
    expect({ writer, reader }).toEqual({ writer: -20 * 1024, reader: -20 * 1024 });
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
