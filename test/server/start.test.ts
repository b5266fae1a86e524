import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign } from '../../src/auth/sign.js';
import { openDatabase } from '../../src/db/connection.js';
import { verifyPassword } from '../../src/modules/people/password.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, freePort, killAllServers, spawnServer, waitForOutput, waitUntilServing, type ServerProcess } from '../helpers/processes.js';

/** What the first start prints once: the owner account and the first app's credentials. */
interface PrintedSecrets {
  email: string;
  password: string;
  appId: string;
  appKey: string;
  secretKey: string;
  sign: string;
}

function readFirstRun(output: string): PrintedSecrets {
  const pick = (pattern: RegExp): string => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`the first-run text lacks ${pattern}:\n${output}`);
    return match[1];
  };
  return {
    email: pick(/owner account\s+(\S+@\S+)/),
    password: pick(/owner account\s+\S+\s+password (\S+)/),
    appId: pick(/first app\s+(\S+)/),
    appKey: pick(/SVC-Appkey\s+(\S+)/),
    secretKey: pick(/SecretKey\s+(\S+)/),
    sign: pick(/SVC-Sign\s+(\S+)/),
  };
}

/** fetch with a JSON body and the envelope parsed, like `curl -H … -d …`. */
async function send(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { success: boolean; error_code: number; error_msg: string; data: Record<string, unknown> } };
}

const STACK_LINE = /^\s+at .+\(.+:\d+:\d+\)$/m;

beforeAll(ensureBuilt, 180_000);
afterAll(killAllServers);

describeEachEngine('server start', (engine) => {
  let testDatabase: TestDatabase;
  let first: ServerProcess;
  let printed: PrintedSecrets;

  beforeAll(async () => {
    testDatabase = await engine.create();
    first = await spawnServer(['dist/main.js'], { DATABASE_URL: testDatabase.url });
    await waitUntilServing(first);
    await waitForOutput(first, /SVC-Sign\s+\S{88}/);
    printed = readFirstRun(first.output());
  });

  afterAll(async () => {
    await killAllServers();
    await testDatabase?.drop();
  });

  it('prints the owner account and the first app key, Secret and Sign on the first start', async () => {
    expect(first.output()).toContain('These secrets are shown once');
    expect(printed.email).toBe('owner@tabularium.local');
    expect(printed.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(printed.appKey).toMatch(/^[0-9a-f]{16}$/);
    expect(printed.sign).toHaveLength(88);
    expect(computeSign(printed.appKey, printed.secretKey)).toBe(printed.sign);
    // The log line goes through pino's transport thread and may land after /health answers.
    await waitForOutput(first, /Tabularium serves/);
    expect(first.output()).toContain(`Tabularium serves ${first.url}`);

    // What was printed is what was stored: the password opens the owner account, the ids exist.
    const database = openDatabase(testDatabase.url);
    try {
      const owner = await database.db.selectFrom('accounts').select(['email', 'password_hash']).executeTakeFirstOrThrow();
      expect(owner.email).toBe(printed.email);
      expect(await verifyPassword(printed.password, owner.password_hash ?? '')).toBe(true);
      const key = await database.db.selectFrom('app_keys').select(['app_id']).where('app_key', '=', printed.appKey).executeTakeFirstOrThrow();
      expect(key.app_id).toBe(printed.appId);
    } finally {
      await database.close();
    }
  });

  it('lets the printed key create a worksheet and a record over HTTP', async () => {
    const auth = { 'SVC-Appkey': printed.appKey, 'SVC-Sign': printed.sign };
    const app = await send(`${first.url}/v3/app`, 'GET', auth);
    expect(app.status).toBe(200);
    expect(app.body.data.appId).toBe(printed.appId);

    const worksheet = await send(`${first.url}/v3/app/worksheets`, 'POST', auth, {
      name: 'Orders',
      alias: 'orders',
      fields: [{ name: 'Title', alias: 'title', type: 'Text', isTitle: true }],
    });
    expect(worksheet.body).toMatchObject({ success: true, error_code: 1 });
    const worksheetId = worksheet.body.data.worksheetId as string;
    expect(worksheetId).toEqual(expect.any(String));

    const record = await send(`${first.url}/v3/app/worksheets/${worksheetId}/rows`, 'POST', auth, { fields: [{ id: 'title', value: 'First order' }] });
    expect(record.body).toMatchObject({ success: true, error_code: 1 });
    const rowId = record.body.data.id as string;

    const readBack = await send(`${first.url}/v3/app/worksheets/${worksheetId}/rows/${rowId}`, 'GET', auth);
    expect(readBack.status).toBe(200);
    expect(readBack.body.data.id).toBe(rowId);
    expect(readBack.body.data.fields).toContainEqual(expect.objectContaining({ value: 'First order' }));
  });

  it('refuses a request without the key over HTTP', async () => {
    const response = await send(`${first.url}/v3/app`, 'GET', {});
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, error_code: 10101 });
  });

  it('reports health: database ok, Redis not configured', async () => {
    const health = await send(`${first.url}/health`, 'GET', {});
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ status: 'ok', database: 'ok', redis: 'not configured' });
    expect(health.body.data.engine).toMatch(engine.name === 'sqlite' ? /SQLite/ : /PostgreSQL/);
  });

  it('exits 0 on SIGTERM', async () => {
    expect(await first.stop('SIGTERM')).toBe(0);
    await expect(fetch(`${first.url}/health`)).rejects.toThrow();
  });

  it('prints no secrets on the second start, keeps the key working, and exits 0 on SIGINT', async () => {
    const second = await spawnServer(['dist/main.js'], { DATABASE_URL: testDatabase.url });
    await waitUntilServing(second);
    await waitForOutput(second, /Tabularium serves/);
    const output = second.output();
    expect(output).not.toContain('These secrets are shown once');
    for (const secret of [printed.password, printed.secretKey, printed.sign]) expect(output).not.toContain(secret);

    const app = await send(`${second.url}/v3/app`, 'GET', { 'SVC-Appkey': printed.appKey, 'SVC-Sign': printed.sign });
    expect(app.body.data.appId).toBe(printed.appId);
    const worksheets = await send(`${second.url}/v3/app/worksheets/list`, 'POST', { 'SVC-Appkey': printed.appKey, 'SVC-Sign': printed.sign }, {});
    expect(worksheets.body.data).toEqual([expect.objectContaining({ name: 'Orders' })]);

    expect(await second.stop('SIGINT')).toBe(0);
  });
});

describe('server start with an invalid setting', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tabularium-start-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[setting: string, value: string]> = [
    ['PORT', 'abc'],
    ['TIME_ZONE', 'Mars/Base'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['HEADER_PREFIX', 'S V'],
  ];

  it.each(cases)('%s=%s exits non-zero and names the setting, without a stack trace', async (setting, value) => {
    const server = await spawnServer(['dist/main.js'], { DATABASE_URL: `sqlite:${join(dir, 'never.db')}`, [setting]: value });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`Invalid configuration: ${setting}`);
    expect(server.output()).not.toMatch(STACK_LINE);
  });
});

describe('server start on a port that is taken', () => {
  let dir: string;
  let blocker: Server;
  let port: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tabularium-start-'));
    port = await freePort();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits non-zero and says PORT is in use, without a stack trace, after printing the first-run secrets', async () => {
    const url = `sqlite:${join(dir, 'taken.db')}`;
    const server = await spawnServer(['dist/main.js'], { DATABASE_URL: url, PORT: String(port) });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(new RegExp(`Invalid configuration: PORT ${port} is already in use`));
    expect(server.output()).not.toMatch(STACK_LINE);

    // The database was set up before listening failed, and its secrets are stored only as hashes:
    // had they not been printed, no later start could show them.
    const printed = readFirstRun(server.output());
    expect(computeSign(printed.appKey, printed.secretKey)).toBe(printed.sign);
    const database = openDatabase(url);
    try {
      const keys = await database.db.selectFrom('app_keys').select('app_key').execute();
      expect(keys.map((k) => k.app_key)).toEqual([printed.appKey]);
    } finally {
      await database.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)(redisUrl ? 'server start with Redis' : 'server start with Redis [skipped: TEST_REDIS_URL is not set]', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tabularium-start-'));
  });
  afterAll(async () => {
    await killAllServers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports Redis ok on /health and exits 0 on SIGTERM', async () => {
    const server = await spawnServer(['dist/main.js'], { DATABASE_URL: `sqlite:${join(dir, 'redis.db')}`, REDIS_URL: redisUrl! });
    await waitUntilServing(server);
    const health = await send(`${server.url}/health`, 'GET', {});
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ status: 'ok', database: 'ok', redis: 'ok' });
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
