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
