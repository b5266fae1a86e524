import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import Database from 'better-sqlite3';

/** A fresh, empty database for one bench run, and how to remove it afterwards. */
export interface BenchDatabase {
  url: string;
  engine: 'SQLite' | 'PostgreSQL';
  /** Where it lives, without credentials. */
  where: string;
  dispose(): Promise<void>;
}

/** A new SQLite file in a temp dir, removed with the dir. */
export async function freshSqlite(): Promise<BenchDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'tabularium-bench-'));
  const file = join(dir, 'bench.db');
  return { url: `sqlite:${file}`, engine: 'SQLite', where: file, dispose: () => rm(dir, { recursive: true, force: true }) };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new schema `bench_<random>` in the given PostgreSQL database, dropped (with everything in it) afterwards. */
export async function freshPostgresSchema(baseUrl: string): Promise<BenchDatabase> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const base = new URL(baseUrl);
  base.searchParams.delete('schema');
  await withClient(base.toString(), (client) => client.query(`CREATE SCHEMA "${schema}"`));
  const url = new URL(base.toString());
  url.searchParams.set('schema', schema);
  return {
    url: url.toString(),
    engine: 'PostgreSQL',
    where: `${base.host}${base.pathname}, schema ${schema}`,
    dispose: () => withClient(base.toString(), (client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => undefined),
  };
}

/**
 * Runs one statement on the bench database beside the server (what no API call may do: W4m gives
 * the member the records, as if they had made them). PostgreSQL: in the bench's schema.
 */
export async function runStatement(database: BenchDatabase, text: string, parameters: unknown[]): Promise<void> {
  if (database.engine === 'SQLite') {
    const db = new Database(database.where);
    try {
      db.prepare(text.replace(/\$\d+/g, '?')).run(...parameters);
    } finally {
      db.close();
    }
    return;
  }
  const url = new URL(database.url);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  await withClient(url.toString(), async (client) => {
    await client.query(`SET search_path TO "${schema}"`);
    await client.query(text, parameters);
  });
}

/** Runs one query on the bench database beside the server and returns its rows (the workflow workloads read their runs). */
export async function queryRows<T>(database: BenchDatabase, text: string, parameters: unknown[]): Promise<T[]> {
  if (database.engine === 'SQLite') {
    const db = new Database(database.where, { readonly: true });
    try {
      return db.prepare(text.replace(/\$\d+/g, '?')).all(...parameters) as T[];
    } finally {
      db.close();
    }
  }
  const url = new URL(database.url);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  return withClient(url.toString(), async (client) => {
    await client.query(`SET search_path TO "${schema}"`);
    return (await client.query(text, parameters)).rows as T[];
  });
}
