import type { Executor } from '../../db/connection.js';

/** SQL of the user's own view and the lookups: whom and which organizations a person finds. */

export interface NamedMember {
  id: string;
  fullname: string;
  email: string;
  mobile: string;
}

/** The active members (with an active account) of the organization whose full name is exactly `name`, case and all. */
export async function activeMembersNamed(db: Executor, organizationId: string, name: string): Promise<NamedMember[]> {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.id', 'a.fullname', 'a.email', 'a.mobile'])
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 1)
    .where('a.status', '=', 1)
    .where('a.fullname', '=', name)
    .orderBy('a.email')
    .limit(100)
    .execute();
}

/** The organizations the account is an active member of, the first joined first. */
export async function organizationsOfAccount(db: Executor, accountId: string): Promise<Array<{ id: string; name: string; isAdmin: boolean }>> {
  const rows = await db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['o.id', 'o.name', 'm.is_admin'])
    .where('m.account_id', '=', accountId)
    .where('m.status', '=', 1)
    .orderBy('m.joined_at')
    .orderBy('o.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, isAdmin: Number(r.is_admin) === 1 }));
}

export async function organizationNamed(db: Executor, organizationId: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('organizations').select(['id', 'name']).where('id', '=', organizationId).executeTakeFirst();
}

/** The account's own details (whatever its memberships). */
export async function accountProfile(db: Executor, accountId: string) {
  return db.selectFrom('accounts').select(['id', 'fullname', 'email', 'mobile', 'avatar', 'organization_id']).where('id', '=', accountId).executeTakeFirst();
}

/** Whether the account is an active member of the organization, and administers it. */
export async function membershipIn(db: Executor, organizationId: string, accountId: string): Promise<{ active: boolean; admin: boolean }> {
  const row = await db.selectFrom('organization_members').select(['status', 'is_admin']).where('organization_id', '=', organizationId).where('account_id', '=', accountId).executeTakeFirst();
  const active = row !== undefined && Number(row.status) === 1;
  return { active, admin: active && Number(row.is_admin) === 1 };
}
