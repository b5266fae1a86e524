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

  it('keys create --allow-ip and keys allow-ip restrict a key to addresses, checked by the running server', async () => {
    const server = await spawnServer(['bin/tabularium.js', 'serve'], { ...env, LOG_LEVEL: 'warn' });
    await waitUntilServing(server);
    const status = async (key: IssuedKeyJson) => {
      const response = await fetch(`${server.url}/v3/app`, { headers: { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign } });
      return { status: response.status, body: (await response.json()) as { error_code: number; error_msg: string } };
    };

    const elsewhere = json<IssuedKeyJson & { allowedIps: string[] }>(await runCli(['keys', 'create', '--app', created.appId, '--allow-ip', '10.0.0.0/8', '--allow-ip', '2001:db8::/32', '--json'], env));
    expect(elsewhere.allowedIps).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    const refused = await status(elsewhere);
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe(10000);
    expect(refused.body.error_msg).toContain('127.0.0.1');

    const local = json<IssuedKeyJson & { allowedIps: string[] }>(await runCli(['keys', 'create', '--app', created.appId, '--allow-ip', '127.0.0.0/8', '--json'], env));
    expect((await status(local)).status).toBe(200);

    // Changed before the server first sees the key (a cached key is read again within 30 s).
    const later = json<IssuedKeyJson>(await runCli(['keys', 'create', '--app', created.appId, '--json'], env));
    expect(keysOf(later)).toEqual(['appId', 'appKey', 'secretKey', 'sign']);
    expect(json(await runCli(['keys', 'allow-ip', '--key', later.appKey, '--cidr', '192.0.2.0/24', '--json'], env))).toEqual({ appKey: later.appKey, allowedIps: ['192.0.2.0/24'] });
    expect((await status(later)).body.error_code).toBe(10000);
    const opened = await runCli(['keys', 'allow-ip', '--key', elsewhere.appKey, '--any'], env);
    expect(opened.stdout).toBe(`appKey      ${elsewhere.appKey}\nallowedIps  any\n`);

    const database = openDatabase(testDatabase.url);
    try {
      const rows = await database.db.selectFrom('app_keys').select(['app_key', 'allowed_ips']).where('app_key', 'in', [elsewhere.appKey, local.appKey, later.appKey]).execute();
      expect(Object.fromEntries(rows.map((row) => [row.app_key, row.allowed_ips]))).toEqual({ [elsewhere.appKey]: null, [local.appKey]: '["127.0.0.0/8"]', [later.appKey]: '["192.0.2.0/24"]' });
    } finally {
      await database.close();
    }
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('keys allow-ip refuses a bad range, an unknown key, and neither or both of --cidr and --any', async () => {
    const bad = await runCli(['keys', 'allow-ip', '--key', first.app.appKey, '--cidr', '10.0.0.0/33'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('tabularium: "10.0.0.0/33" is not an IP address or CIDR range (such as 10.0.0.0/8 or 2001:db8::/32)\n');
    const badCreate = await runCli(['keys', 'create', '--app', created.appId, '--allow-ip', 'example.com'], env);
    expect(badCreate.code).toBe(1);
    expect(badCreate.stderr).toContain('"example.com" is not an IP address');
    const unknown = await runCli(['keys', 'allow-ip', '--key', 'nope', '--any'], env);
    expect(unknown.stderr).toBe('tabularium: no app key "nope"\n');
    for (const args of [[], ['--any', '--cidr', '10.0.0.0/8']]) {
      const result = await runCli(['keys', 'allow-ip', '--key', first.app.appKey, ...args], env);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/--cidr.*--any/);
    }
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
