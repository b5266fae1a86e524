import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, killAllServers, runCli, spawnServer, waitUntilServing, type ServerProcess } from '../helpers/processes.js';

const redisUrl = process.env.TEST_REDIS_URL;

/** The window the test counts in: an hour, so that it does not renew while the test runs (it waits out the last seconds of one). */
const WINDOW_SECONDS = 3600;

beforeAll(ensureBuilt, 180_000);
afterAll(killAllServers);

describe.skipIf(!redisUrl)(redisUrl ? 'rate limits shared through Redis' : 'rate limits shared through Redis [skipped: TEST_REDIS_URL is not set]', () => {
  let dir: string;
  let servers: ServerProcess[];
  let auth: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tabularium-redis-limits-'));
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'limits.db')}`,
      REDIS_URL: redisUrl!,
      // A prefix of this run's own: parallel runs on the same Redis count apart.
      REDIS_KEY_PREFIX: `tabularium-test-${randomBytes(6).toString('hex')}:`,
      RATE_LIMIT: '5',
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      LOG_LEVEL: 'warn',
    };
    const setup = await runCli(['setup', '--json'], env);
    expect(setup.code, setup.stderr).toBe(0);
    const { app } = JSON.parse(setup.stdout) as { app: { appKey: string; sign: string } };
    auth = { 'SVC-Appkey': app.appKey, 'SVC-Sign': app.sign };
    servers = [await spawnServer(['dist/main.js'], env), await spawnServer(['dist/main.js'], env)];
    await Promise.all(servers.map((server) => waitUntilServing(server)));
  }, 60_000);

  afterAll(async () => {
    await killAllServers();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('counts one budget for a credential across two server processes', async () => {
    const secondsLeft = WINDOW_SECONDS - (Math.floor(Date.now() / 1000) % WINDOW_SECONDS);
    if (secondsLeft < 5) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100));
    const seen: Array<{ status: number; code: number; remaining: string | null; retryAfter: string | null }> = [];
    for (let i = 0; i < 7; i += 1) {
      const response = await fetch(`${servers[i % 2].url}/v3/app`, { headers: auth });
      const body = (await response.json()) as { error_code: number };
      seen.push({ status: response.status, code: body.error_code, remaining: response.headers.get('ratelimit'), retryAfter: response.headers.get('retry-after') });
    }
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(seen.map((s) => /"credential";r=(\d+)/.exec(s.remaining ?? '')?.[1])).toEqual(['4', '3', '2', '1', '0', '0', '0']);
    expect(seen[5].code).toBe(51);
    expect(Number(seen[5].retryAfter)).toBeGreaterThan(0);
    expect(Number(seen[5].retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
  });
});
