import { expect } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { hashPassword } from '../../src/modules/people/index.js';
import { newGuid } from '../../src/shared/ids.js';
import type { ApiContext } from './api-harness.js';

/**
 * A person of the setup's organization who can sign in with `password`: `status` 1 is active;
 * `membership` is how they belong to the organization (none: an account of it that is not a member).
 * @example const id = await addPerson(ctx, 'ann@example.com', 'a good password', { now, membership: 'admin' })
 */
export async function addPerson(ctx: ApiContext, email: string, password: string, options: { now: number; status?: number; membership?: 'member' | 'admin' | 'none' }): Promise<string> {
  const id = newGuid();
  const { now, status = 1, membership = 'member' } = options;
  await ctx.database.db
    .insertInto('accounts')
    .values({ id, organization_id: ctx.setup.organizationId, email, fullname: email.split('@')[0], password_hash: await hashPassword(password), status, created_at: now })
    .execute();
  if (membership !== 'none') {
    await ctx.database.db.insertInto('organization_members').values({ organization_id: ctx.setup.organizationId, account_id: id, is_admin: membership === 'admin' ? 1 : 0, status: 1, joined_at: now }).execute();
  }
  return id;
}

/**
 * A member of the setup's organization (no password) with a personal access token of every scope,
 * and the headers that call the setup's application as them.
 * @example const ada = await memberWithToken(ctx, 'Ada'); await ctx.call('GET', '/v3/app', undefined, ada.headers)
 */
export async function memberWithToken(ctx: ApiContext, name: string): Promise<{ id: string; headers: Record<string, string> }> {
  const id = newGuid();
  await ctx.database.db.insertInto('accounts').values({ id, organization_id: ctx.setup.organizationId, email: `${name}-${ctx.engine}@example.com`, fullname: name, password_hash: null, status: 1, created_at: Date.now() }).execute();
  await ctx.database.db.insertInto('organization_members').values({ organization_id: ctx.setup.organizationId, account_id: id, is_admin: 0, status: 1, joined_at: Date.now() }).execute();
  const { token } = await createToken(ctx.database.db, id, { scopes: 'all' }, Date.now());
  return { id, headers: { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId } };
}

/**
 * Makes a role of the setup's application (`body` as `POST /v3/app/roles` takes it) and gives it to
 * these people; returns its id.
 * @example await giveRole(ctx, 'Readers', { permissionScope: 20 }, [ada.id])
 */
export async function giveRole(ctx: ApiContext, name: string, body: Record<string, unknown>, userIds: string[]): Promise<string> {
  const made = await ctx.call<{ id: string }>('POST', '/v3/app/roles', { name, ...body });
  expect(made.body.error_msg).toBe('');
  if (userIds.length > 0) expect((await ctx.call('POST', `/v3/app/roles/${made.body.data.id}/members`, { userIds })).body.error_msg).toBe('');
  return made.body.data.id;
}

/** A person of the setup's organization with a personal access token (every scope) acting in the first application. */
export interface TokenPerson {
  id: string;
  /** Headers of their token, with the first application's Appid. */
  headers: Record<string, string>;
}

/**
 * A person who can call the API with their own token in the first application (no role unless given one).
 * @example const ann = await personWithToken(ctx, 'ann', now)
 */
export async function personWithToken(ctx: ApiContext, name: string, now: number): Promise<TokenPerson> {
  const id = await addPerson(ctx, `${name}-${ctx.engine}@example.com`, 'a good password', { now });
  await ctx.database.db.updateTable('accounts').set({ fullname: name }).where('id', '=', id).execute();
  const { token } = await createToken(ctx.database.db, id, { scopes: 'all' }, now);
  return { id, headers: { authorization: `Bearer ${token}`, [`${ctx.config.headerPrefix}-Appid`]: ctx.setup.app.appId } };
}
