import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { administersRoute, NO_WORKSHEET, reads, writes, type Grants } from '../../src/access/index.js';
import type { AuthStrategy } from '../../src/auth/auth-strategy.js';
import { actorOf, authenticationPlugin } from '../../src/plugins/authentication.js';
import { errorHandlerPlugin } from '../../src/plugins/error-handler.js';
import type { Actor } from '../../src/shared/actor.js';
import { AppError } from '../../src/shared/app-error.js';

/**
 * The authentication hook with the routes' declared needs, over real HTTP on a loopback port: a
 * strategy sees the whole request (here a cookie and the address), the route's scope is checked
 * against the credential's, a read-only caller cannot write, and only administrators change structure.
 */

const MEMBER: Grants = { administrator: false, readOnly: false, worksheets: new Map([['ws', NO_WORKSHEET]]), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [], pages: null, chatbots: null };

/** A stand-in credential carried in a cookie: `who=<kind>|<scopes, comma-separated or *>|<admin, member, readonly or expired>`. */
const cookieStrategy: AuthStrategy = {
  name: 'test-cookie',
  hint: 'the who cookie',
  async authenticate({ cookies, headers, ip }): Promise<Actor | null> {
    const raw = cookies.who ?? /(?:^|;\s*)who=([^;]+)/.exec(String(headers.cookie ?? ''))?.[1];
    if (raw === undefined) return null;
    const [kind, scopes, standing] = decodeURIComponent(raw).split('|');
    if (standing === 'expired') throw new AppError(10105, 401, 'the token has expired');
    const grants: Grants = standing === 'member' ? MEMBER : { administrator: true, readOnly: standing === 'readonly', worksheets: new Map(), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [], pages: null, chatbots: null };
    return { kind: kind as Actor['kind'], appId: 'app', organizationId: 'org', userId: 'u1', accountId: 'u1', credentialId: ip, scopes: scopes === '*' ? null : new Set(scopes.split(',')), grants, organizationAdmin: standing === 'admin' };
  },
};

describe('route access declared per route', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    await app.register(errorHandlerPlugin, { profile: 'spec' });
    await app.register(authenticationPlugin, { strategies: [cookieStrategy] });
    app.get('/open', { config: { access: 'public' } }, async () => ({ success: true, data: 'open' }));
    app.get('/list', { config: { access: reads('record:list') } }, async (request) => ({ success: true, data: actorOf(request).credentialId }));
    app.post('/create', { config: { access: writes('record:create') } }, async () => ({ success: true, data: 'created' }));
    app.post('/structure', { config: { access: administersRoute('worksheet:edit') } }, async () => ({ success: true, data: 'changed' }));
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app.close());

  async function call(method: string, path: string, who?: string) {
    const response = await fetch(`${base}${path}`, { method, headers: who === undefined ? {} : { cookie: `who=${encodeURIComponent(who)}` } });
    return { status: response.status, body: (await response.json()) as { success: boolean; error_code?: number; error_msg?: string; data: unknown } };
  }

  it('answers public routes without credentials, and 401 naming the ways to authenticate otherwise', async () => {
    expect((await call('GET', '/open')).body.data).toBe('open');
    const missing = await call('GET', '/list');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ success: false, error_code: 10101, error_msg: 'credentials are required: send the who cookie' });
    expect((await call('GET', '/list', 'token|*|expired')).body.error_code).toBe(10105);
  });

  it("gives the strategy the request's cookies and address", async () => {
    expect((await call('GET', '/list', 'session|*|admin')).body.data).toBe('127.0.0.1');
  });

  it("checks the route's scope against the credential's: 10005, or 600320 through OAuth", async () => {
    expect((await call('GET', '/list', 'token|record:list|admin')).body.data).toBe('127.0.0.1');
    const token = await call('POST', '/create', 'token|record:list|admin');
    expect(token.status).toBe(403);
    expect(token.body).toMatchObject({ error_code: 10005, error_msg: 'this credential was not given the scope record:create' });
    expect((await call('POST', '/create', 'oauth|record:list|admin')).body.error_code).toBe(600320);
    expect((await call('POST', '/create', 'token|record:list,record:create|admin')).body.data).toBe('created');
  });

  it('refuses writes to a read-only caller and structure changes to a member', async () => {
    expect((await call('POST', '/create', 'appKey|*|readonly')).body).toMatchObject({ error_code: 10005, error_msg: 'this key is read-only and cannot change data' });
    expect((await call('POST', '/create', 'session|*|member')).body.data).toBe('created');
    expect((await call('POST', '/structure', 'session|*|member')).body).toMatchObject({ error_code: 10005, error_msg: 'only an administrator of the application may change its structure' });
    expect((await call('POST', '/structure', 'session|*|admin')).body.data).toBe('changed');
  });
});
