import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, runCli, type CliResult } from '../helpers/processes.js';

/** `tabularium oauth-clients create|list|disable`: OAuth clients registered from the command line. */

function json<T>(result: CliResult): T {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

beforeAll(ensureBuilt, 180_000);

describeEachEngine('tabularium oauth-clients', (engine) => {
  let testDatabase: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    testDatabase = await engine.create();
    env = { DATABASE_URL: testDatabase.url };
    json(await runCli(['setup', '--json'], env));
  }, 60_000);
  afterAll(() => testDatabase?.drop());

  it('registers a client with its secret shown once, lists it without the secret, and disables it', async () => {
    const made = json<{ clientId: string; clientSecret: string; scopes: string }>(
      await runCli(['oauth-clients', 'create', '--name', 'CRM', '--redirect-uris', 'https://crm.example/cb', '--scopes', 'record:list,record:get', '--json'], env),
    );
    expect(made.clientSecret).toMatch(/^ocs_/);
    expect(made.scopes).toBe('record:list,record:get');
    const listed = json<{ clients: Array<{ clientId: string; enabled: boolean }> }>(await runCli(['oauth-clients', 'list', '--json'], env));
    expect(listed.clients.map((c) => [c.clientId, c.enabled])).toEqual([[made.clientId, true]]);
    expect(JSON.stringify(listed)).not.toContain(made.clientSecret);
    expect(json<{ enabled: boolean }>(await runCli(['oauth-clients', 'disable', '--client-id', made.clientId, '--json'], env)).enabled).toBe(false);
    const unknown = await runCli(['oauth-clients', 'create', '--name', 'X', '--redirect-uris', 'https://x.example/cb', '--scopes', 'nope:x', '--json'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown scope "nope:x"');
  }, 60_000);
});
