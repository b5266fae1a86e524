import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign } from '../../src/auth/sign.js';
import { openDatabase } from '../../src/db/connection.js';
import { migrations } from '../../src/db/migrations/index.js';
import { verifyPassword } from '../../src/modules/people/password.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, killAllServers, runCli, spawnServer, waitUntilServing, type CliResult } from '../helpers/processes.js';

interface IssuedKeyJson {
  appId: string;
  appKey: string;
  secretKey: string;
  sign: string;
}

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

/** Parses the stdout of a `--json` command after checking that it succeeded. */
function json<T>(result: CliResult): T {
  expect(result.stderr, `stderr of a successful command`).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** The sorted keys of an object: the exact shape a script relies on. */
const keysOf = (value: object): string[] => Object.keys(value).sort();

function expectValidKey(key: IssuedKeyJson): void {
  expect(keysOf(key)).toEqual(['appId', 'appKey', 'secretKey', 'sign']);
  expect(key.appKey).toMatch(/^[0-9a-f]{16}$/);
  expect(key.secretKey.length).toBeGreaterThanOrEqual(16);
  expect(key.sign).toHaveLength(88);
  expect(computeSign(key.appKey, key.secretKey)).toBe(key.sign);
}

beforeAll(ensureBuilt, 180_000);
afterAll(killAllServers);

describeEachEngine('tabularium CLI', (engine) => {
  let testDatabase: TestDatabase;
  let env: Record<string, string>;
  let first: {
    organizationId: string;
    owner: { accountId: string; email: string; password: string };
    app: IssuedKeyJson;
  };

  beforeAll(async () => {
    testDatabase = await engine.create();
    env = { DATABASE_URL: testDatabase.url };
  });

  afterAll(async () => {
    await killAllServers();
    await testDatabase?.drop();
  });

  /** Counts rows of a table, read straight from the database the CLI wrote. */
  async function count(table: 'organizations' | 'accounts' | 'apps' | 'app_keys'): Promise<number> {
    const database = openDatabase(testDatabase.url);
    try {
      return (await database.db.selectFrom(table).select('id').execute()).length;
    } finally {
      await database.close();
    }
  }

  it('migrate applies the migrations to an empty database, then finds nothing to do', async () => {
    const applied = json<{ applied: string }>(await runCli(['migrate', '--json'], env));
    expect(applied.applied.split(', ')).toEqual(Object.keys(migrations));
    const again = await runCli(['migrate'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^applied\s+none \(up to date\)\n$/);
  });

  it('apps create refuses a database that is not set up yet, and says what to run', async () => {
    const result = await runCli(['apps', 'create', '--name', 'Too early'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('tabularium setup');
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(await count('apps')).toBe(0);
  });

  it('setup --json on an empty database prints the organization, the owner and the first key', async () => {
    first = json(await runCli(['setup', '--json'], env));
    expect(keysOf(first)).toEqual(['app', 'organizationId', 'owner']);
    expect(keysOf(first.owner)).toEqual(['accountId', 'email', 'password']);
    expectValidKey(first.app);
    expect(first.organizationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.owner.accountId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.app.appId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.owner.email).toBe('owner@tabularium.local');

    const database = openDatabase(testDatabase.url);
    try {
      const owner = await database.db.selectFrom('accounts').select(['id', 'organization_id', 'password_hash']).executeTakeFirstOrThrow();
      expect(owner.id).toBe(first.owner.accountId);
      expect(owner.organization_id).toBe(first.organizationId);
      expect(await verifyPassword(first.owner.password, owner.password_hash ?? '')).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('setup --json a second time creates nothing and prints the same ids without secrets', async () => {
    const result = await runCli(['setup', '--json'], env);
    const again = json<{ organizationId: string; owner: Record<string, string>; app: Record<string, string> }>(result);
    expect(again).toEqual({
      organizationId: first.organizationId,
      owner: { accountId: first.owner.accountId, email: first.owner.email },
      app: { appId: first.app.appId, appKey: first.app.appKey },
    });
    for (const secret of [first.owner.password, first.app.secretKey, first.app.sign]) expect(result.stdout).not.toContain(secret);
    expect([await count('organizations'), await count('accounts'), await count('apps'), await count('app_keys')]).toEqual([1, 1, 1, 1]);
  });

  it('setup without --json prints aligned key and value lines', async () => {
    const result = await runCli(['setup'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`organizationId   ${first.organizationId}\n`);
    expect(result.stdout).toContain(`app.appKey       ${first.app.appKey}\n`);
  });

  let created: IssuedKeyJson;

  it('apps create --name X --json prints a new application with its key', async () => {
    created = json<IssuedKeyJson>(await runCli(['apps', 'create', '--name', 'Warehouse', '--json'], env));
    expectValidKey(created);
    expect(created.appId).not.toBe(first.app.appId);
    expect(await count('apps')).toBe(2);
  });

  it('keys create --app ID --read-only --json prints a key that reads but cannot write, on the running server', async () => {
    const server = await spawnServer(['bin/tabularium.js', 'serve'], { ...env, LOG_LEVEL: 'warn' });
    await waitUntilServing(server);

    // Created while the server runs, as an operator would: the server must find it without a restart.
    const readOnly = json<IssuedKeyJson>(await runCli(['keys', 'create', '--app', created.appId, '--read-only', '--json'], env));
    expectValidKey(readOnly);
    expect(readOnly.appId).toBe(created.appId);
    const writable = json<IssuedKeyJson>(await runCli(['keys', 'create', '--app', created.appId, '--json'], env));
    expectValidKey(writable);
    expect(writable.appKey).not.toBe(readOnly.appKey);

    const call = async (key: IssuedKeyJson, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { error_code: number; data: Record<string, unknown> } };
    };

    const app = await call(readOnly, 'GET', '/v3/app');
    expect(app.status).toBe(200);
    expect(app.body.data).toMatchObject({ appId: created.appId, name: 'Warehouse' });
    expect((await call(readOnly, 'POST', '/v3/app/worksheets/list', {})).status).toBe(200);
    const write = await call(readOnly, 'POST', '/v3/app/worksheets', { name: 'Refused' });
    expect(write.status).toBe(403);
    expect(write.body.error_code).toBe(10005);

    const allowed = await call(writable, 'POST', '/v3/app/worksheets', { name: 'Stock' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.error_code).toBe(1);

    // A key of the new application sees that application, not the first one.
    const other = await call(first.app, 'POST', '/v3/app/worksheets/list', {});
    expect(other.body.data).toEqual([]);

    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('keys create --app unknown exits non-zero with a clear message', async () => {
    const before = await count('app_keys');
    const result = await runCli(['keys', 'create', '--app', 'unknown', '--json'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('tabularium: no application "unknown"\n');
    expect(await count('app_keys')).toBe(before);
  });

  it('keys create without --app exits non-zero and names the missing option', async () => {
    const result = await runCli(['keys', 'create'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--app');
  });
});

describe('tabularium CLI with an invalid setting', () => {
  it.each(['migrate', 'setup --json', 'apps create --name X', 'keys create --app x'])(
    '`%s` with PORT=abc exits non-zero and names PORT',
    async (command) => {
      const result = await runCli(command.split(' '), { DATABASE_URL: 'sqlite:/nonexistent-dir/never-opened.db', PORT: 'abc' });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('tabularium: Invalid configuration: PORT must be a whole number, got "abc"\n');
    },
  );

  it('DATABASE_URL=mysql://x exits non-zero and names DATABASE_URL', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: 'mysql://x' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration: DATABASE_URL');
  });
});
