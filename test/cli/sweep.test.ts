import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { SESSION_IDLE_MS } from '../../src/modules/sign-in/index.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';

/** `tabularium sweep --json`: one maintenance sweep now, with the counts of what it removed. */

beforeAll(ensureBuilt, 180_000);

describeEachEngine('tabularium sweep', (engine) => {
  let testDatabase: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    testDatabase = await engine.create();
    env = { DATABASE_URL: testDatabase.url };
    const setup = await runCli(['setup', '--json'], env);
    expect(setup.code).toBe(0);
    const database = openDatabase(testDatabase.url);
    try {
      const owner = await database.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
      const longAgo = Date.now() - SESSION_IDLE_MS - 60_000;
      await database.db.insertInto('sessions').values({ id: 'idle session', account_id: owner.id, data: '{}', created_at: longAgo, seen_at: longAgo }).execute();
      await database.db.insertInto('sign_in_failures').values({ key: 'ip:10.0.0.1', at: longAgo }).execute();
    } finally {
      await database.close();
    }
  }, 60_000);
  afterAll(() => testDatabase?.drop());

  it('removes what has expired and prints the counts; a second run finds nothing', async () => {
    const first = await runCli(['sweep', '--json'], env);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual({ sessions: 1, signInFailures: 1, oauthTokens: 0, oauthCodes: 0, accessTokens: 0, vectorChanges: 0 });
    const again = await runCli(['sweep'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^sessions\s+0\nsignInFailures\s+0\noauthTokens\s+0\noauthCodes\s+0\naccessTokens\s+0\nvectorChanges\s+0\n$/);
  }, 60_000);
});
