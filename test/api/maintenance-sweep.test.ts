import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { runMaintenanceSweep } from '../../src/jobs/maintenance-sweep.js';
import { createToken, ENDED_TOKEN_RETENTION_MS, listTokens, revokeToken, sweepExpired as sweepAccessTokens } from '../../src/modules/access-tokens/index.js';
import { createClient, issueCode, sweepExpired as sweepOAuth, type ClientView } from '../../src/modules/oauth/index.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SIGN_IN_WINDOW_MS, sweepExpired as sweepSignIn } from '../../src/modules/sign-in/index.js';
import { describeApi } from '../helpers/api-harness.js';

/**
 * The maintenance sweep on every engine, on the test's clock: what is past its use goes, what is not
 * stays, and OAuth reuse detection (a spent refresh token, a replayed code) still revokes a family
 * after a sweep, for as long as any token of that family could be used.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 10, 25, 12, 0, 0);
let now = START;
const REDIRECT = 'http://127.0.0.1:9/callback';
const verifier = 'v'.repeat(50);
const challenge = createHash('sha256').update(verifier).digest('base64url');

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
}

describeApi(
  'maintenance sweep',
  (ctx) => {
    let client: ClientView;
    const db = () => ctx.database.db;
    const form = (url: string, fields: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret!, ...fields }).toString() });
    const newCode = async () => {
      const redirect = await issueCode(db(), { clientId: client.clientId, clientName: client.name, organizationId: ctx.setup.organizationId, redirectUri: REDIRECT, scopes: ['app:get'], state: undefined, codeChallenge: challenge }, ctx.setup.owner.accountId, now);
      return new URL(redirect).searchParams.get('code')!;
    };
    const exchange = (code: string) => form('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    const refresh = (token: string) => form('/oauth/token', { grant_type: 'refresh_token', refresh_token: token });
    const grant = async (): Promise<TokenAnswer> => {
      const answer = await exchange(await newCode());
      expect(answer.statusCode).toBe(200);
      return answer.json<TokenAnswer>();
    };
    const callApi = async (token: string) => (await ctx.call('GET', '/v3/app', undefined, { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId })).body.error_code;
    const codesLeft = async () => (await db().selectFrom('oauth_codes').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

    beforeAll(async () => {
      client = await createClient(db(), ctx.setup.organizationId, { name: 'Sweep client', redirectUris: [REDIRECT], scopes: ['app:get'] }, now);
    });

    it('removes sessions past their idle or absolute lifetime and failures out of the window, and keeps the rest', async () => {
      const session = (id: string, createdAt: number, seenAt: number) => ({ id, account_id: ctx.setup.owner.accountId, data: '{}', created_at: createdAt, seen_at: seenAt });
      await db()
        .insertInto('sessions')
        .values([session('idle', now - DAY, now - SESSION_IDLE_MS), session('old', now - SESSION_ABSOLUTE_MS, now - MINUTE), session('live', now - DAY, now - SESSION_IDLE_MS + 1)])
        .execute();
      await db()
        .insertInto('sign_in_failures')
        .values([{ key: 'ip:10.0.0.1', at: now - SIGN_IN_WINDOW_MS }, { key: 'ip:10.0.0.1', at: now - SIGN_IN_WINDOW_MS + 1 }])
        .execute();
      expect(await sweepSignIn(db(), now)).toEqual({ sessions: 2, signInFailures: 1 });
      expect((await db().selectFrom('sessions').select('id').execute()).map((row) => row.id)).toEqual(['live']);
      expect((await db().selectFrom('sign_in_failures').select('at').execute()).map((row) => Number(row.at))).toEqual([now - SIGN_IN_WINDOW_MS + 1]);
      expect(await sweepSignIn(db(), now)).toEqual({ sessions: 0, signInFailures: 0 });
      await db().deleteFrom('sessions').execute();
      await db().deleteFrom('sign_in_failures').execute();
    });

    it('keeps expired and revoked personal access tokens listed for 30 days, then removes them', async () => {
      const owner = ctx.setup.owner.accountId;
      const made = async (name: string, createdAt: number, expires: string | number) => (await createToken(db(), owner, { name, scopes: ['app:get'], expires }, createdAt)).id;
      await made('expired long ago', now - ENDED_TOKEN_RETENTION_MS - 2 * DAY, 1);
      await made('expired lately', now - 2 * DAY, 1);
      await made('never expires', now - 400 * DAY, 'never');
      await revokeToken(db(), owner, await made('revoked long ago', now - 40 * DAY, 'never'), now - ENDED_TOKEN_RETENTION_MS);
      await revokeToken(db(), owner, await made('revoked lately', now - 40 * DAY, 'never'), now - DAY);
      expect(await sweepAccessTokens(db(), now)).toEqual({ accessTokens: 2 });
      expect((await listTokens(db(), owner, now)).map((token) => [token.name, token.status])).toEqual([
        ['never expires', 'active'],
        ['revoked lately', 'revoked'],
        ['expired lately', 'expired'],
      ]);
      expect(await sweepAccessTokens(db(), now)).toEqual({ accessTokens: 0 });
    });

    it('removes expired unused codes, keeps a used one while its tokens live (a replay still revokes them), then both', async () => {
      await newCode();
      const unused = await newCode();
      const used = await newCode();
      const tokens = (await exchange(used)).json<TokenAnswer>();
      now += MINUTE;
      const fresh = await newCode();
      expect(await sweepOAuth(db(), now)).toEqual({ oauthTokens: 0, oauthCodes: 2 });
      expect(await codesLeft()).toBe(2);
      expect((await exchange(unused)).json()).toMatchObject({ error_code: 600002, error_msg: 'unknown authorization code' });
      expect((await exchange(used)).json()).toMatchObject({ error_code: 600002, error_msg: 'this authorization code was already used; the tokens issued for it are revoked' });
      expect(await callApi(tokens.access_token)).toBe(600101);
      expect((await exchange(fresh)).statusCode).toBe(200);

      // Once every token the used code gave has expired, the family and the code go together.
      now += 31 * DAY;
      expect(await sweepOAuth(db(), now)).toEqual({ oauthTokens: 2, oauthCodes: 2 });
      expect(await codesLeft()).toBe(0);
    });

    it('keeps a token family while any of its tokens could be used: a spent refresh token still revokes it after a sweep', async () => {
      const start = now;
      const first = await grant();
      now += HOUR;
      const rotated = await refresh(first.refresh_token);
      expect(rotated.statusCode).toBe(200);
      const second = rotated.json<TokenAnswer>();
      const kept = await grant();
      now += 2 * HOUR;
      // Every access token has expired, the refresh tokens have not: nothing goes (nor the codes of
      // these families), and refreshing works.
      expect(await sweepOAuth(db(), now)).toEqual({ oauthTokens: 0, oauthCodes: 0 });
      const keptAgain = await refresh(kept.refresh_token);
      expect(keptAgain.statusCode).toBe(200);
      const rotatedKept = keptAgain.json<TokenAnswer>();

      // The first pair's refresh token has expired; the family's newest has not, so the spent one is kept.
      now = start + 30 * DAY + MINUTE;
      expect(await sweepOAuth(db(), now)).toEqual({ oauthTokens: 0, oauthCodes: 0 });
      expect((await refresh(first.refresh_token)).json()).toMatchObject({ error_code: 600103 });
      expect((await refresh(second.refresh_token)).json()).toMatchObject({ error_code: 600101, error_msg: 'this authorization was revoked' });

      // When the last of the family has expired, all of it goes, with its code: its tokens are now
      // unknown. The other family refreshed later, and stays.
      now += HOUR;
      expect(await sweepOAuth(db(), now)).toEqual({ oauthTokens: 2, oauthCodes: 1 });
      expect((await refresh(rotatedKept.refresh_token)).statusCode).toBe(200);
      expect((await refresh(second.refresh_token)).json()).toMatchObject({ error_code: 600102, error_msg: 'unknown refresh token' });
    });

    it('keeps a revoked family answering "revoked" until its tokens expire', async () => {
      const tokens = await grant();
      expect((await form('/oauth/revoke', { token: tokens.refresh_token })).statusCode).toBe(200);
      now += 6_000;
      await runMaintenanceSweep({ db: db() }, now);
      expect(await callApi(tokens.access_token)).toBe(600101);
      expect((await refresh(tokens.refresh_token)).json()).toMatchObject({ error_code: 600101 });
      const family = async () => (await db().selectFrom('oauth_tokens').select('id').where('revoked_at', 'is not', null).execute()).length;
      expect(await family()).toBe(1);
      now += 30 * DAY;
      await runMaintenanceSweep({ db: db() }, now);
      expect(await family()).toBe(0);
      expect((await refresh(tokens.refresh_token)).json()).toMatchObject({ error_code: 600102 });
    });
  },
  // No worker runs the sweep jobs beside the test, which sweeps by hand on its clock.
  { WORKERS: '0' },
  { clock: () => now },
);
