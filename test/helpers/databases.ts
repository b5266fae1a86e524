import { describe } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database made for one test file, and how to throw it away. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface EngineUnderTest {
  name: 'sqlite' | 'postgres';
  /** Why it is skipped, or null when it runs. */
  skipReason: string | null;
  create(): Promise<TestDatabase>;
}

function sqliteEngine(): EngineUnderTest {
  return {
    name: 'sqlite',
    skipReason: null,
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'tabularium-test-'));
      return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  };
}

/** Each test file gets its own schema in the TEST_DATABASE_URL database, dropped afterwards. */
function postgresEngine(): EngineUnderTest {
  const base = process.env.TEST_DATABASE_URL;
  return {
    name: 'postgres',
    skipReason: base ? null : 'TEST_DATABASE_URL is not set',
    async create() {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      await admin.end();
      const url = new URL(base!);
      url.searchParams.set('schema', schema);
      return {
        url: url.toString(),
        drop: async () => {
          const client = new pg.Client({ connectionString: base });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await client.end();
        },
      };
    },
  };
}

/** SQLite always; PostgreSQL when TEST_DATABASE_URL is set. */
export function enginesUnderTest(): EngineUnderTest[] {
  return [sqliteEngine(), postgresEngine()];
}

/**
 * Declares the block once per engine: it runs where the engine is configured and is reported as
 * skipped, with the reason in its title, where it is not.
 * @example describeEachEngine('tabularium CLI', (engine) => { beforeAll(() => engine.create()); … });
 */
export function describeEachEngine(title: string, define: (engine: EngineUnderTest) => void, only?: { engine: EngineUnderTest['name']; why: string }): void {
  for (const engine of enginesUnderTest()) {
    const skipReason = only && only.engine !== engine.name ? `${only.engine} only: ${only.why}` : engine.skipReason;
    const label = skipReason ? `${title} [${engine.name}: skipped, ${skipReason}]` : `${title} [${engine.name}]`;
    describe.skipIf(skipReason !== null)(label, () => define(engine));
  }
}
