import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, runCli, type CliResult } from '../helpers/processes.js';

/** `tabularium tokens create|list|revoke`: personal access tokens made from the command line. */

interface TokenView {
  id: string;
  hint: string;
  status: string;
  scopes: string[];
  expiresAt: string | null;
}

function json<T>(result: CliResult): T {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

beforeAll(ensureBuilt, 180_000);

describeEachEngine('tabularium tokens', (engine) => {
  let testDatabase: TestDatabase;
  let env: Record<string, string>;
  let email: string;

  beforeAll(async () => {
    testDatabase = await engine.create();
    env = { DATABASE_URL: testDatabase.url };
    email = json<{ owner: { email: string } }>(await runCli(['setup', '--json'], env)).owner.email;
  }, 60_000);
  afterAll(() => testDatabase?.drop());

  it('makes a token shown once, lists it without the secret, and revokes it', async () => {
    const made = json<{ token: string; id: string; scopes: string; expiresAt: string }>(await runCli(['tokens', 'create', '--user', email, '--scopes', 'record:list,30100', '--expires', '7', '--json'], env));
    expect(made.token).toMatch(/^pat_/);
    expect(made.scopes).toBe('record:list,record:get');
    expect(Date.parse(made.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const listed = json<{ tokens: TokenView[] }>(await runCli(['tokens', 'list', '--user', email, '--json'], env));
    expect(listed.tokens.map((t) => [t.id, t.hint, t.status])).toEqual([[made.id, `${made.token.slice(0, 8)}…`, 'active']]);
    expect(JSON.stringify(listed)).not.toContain(made.token);
    json(await runCli(['tokens', 'revoke', '--user', email, '--id', made.id, '--json'], env));
    expect(json<{ tokens: TokenView[] }>(await runCli(['tokens', 'list', '--user', email, '--json'], env)).tokens[0].status).toBe('revoked');
  }, 60_000);

  it('refuses an unknown scope, an unknown person and a bad expiry with a clear message', async () => {
    const scope = await runCli(['tokens', 'create', '--user', email, '--scopes', 'record:all'], env);
    expect(scope.code).toBe(1);
    expect(scope.stderr).toBe('tabularium: scopes[0]: "record:all" is not a scope (public names such as record:list, or their codes such as 30500)\n');
    const nobody = await runCli(['tokens', 'list', '--user', 'nobody@example.com'], env);
    expect(nobody.stderr).toBe('tabularium: no person with the email "nobody@example.com"\n');
    const expiry = await runCli(['tokens', 'create', '--user', email, '--scopes', 'all', '--expires', 'later'], env);
    expect(expiry.stderr).toBe('tabularium: expires: "later" is not "never", a number of days or a date\n');
  }, 60_000);
});
