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

/**
 * A role of the first application (made through the API as its key) held by these people; returns its id.
 * @example await roleHeldBy(ctx, 'Clerks', { permissionScope: 80 }, [ann.id])
 */
export async function roleHeldBy(ctx: ApiContext, name: string, body: Record<string, unknown>, userIds: string[]): Promise<string> {
  const created = await ctx.call<{ id: string }>('POST', '/v3/app/roles', { name, ...body });
  if (!created.body.success) throw new Error(`role ${name}: ${created.body.error_msg}`);
  if (userIds.length > 0) {
    const added = await ctx.call('POST', `/v3/app/roles/${created.body.data.id}/members`, { userIds });
    if (!added.body.success) throw new Error(`role ${name} members: ${added.body.error_msg}`);
  }
  return created.body.data.id;
}
