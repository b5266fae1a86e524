import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';

/** SQL of people: accounts and their membership of organizations. Departments and groups have files of their own. */

/** A person as a member of one organization. */
export interface MemberRow {
  id: string;
  email: string;
  fullname: string;
  mobile: string;
  avatar: string;
  status: number;
  isAdmin: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface AccountRow {
  id: string;
  email: string;
  fullname: string;
  mobile: string;
}

const memberColumns = ['a.id', 'a.email', 'a.fullname', 'a.mobile', 'a.avatar', 'm.status', 'm.is_admin', 'a.created_at', 'a.updated_at'] as const;

function memberOf(row: { id: string; email: string; fullname: string; mobile: string; avatar: string; status: number; is_admin: number; created_at: number; updated_at: number }): MemberRow {
  return {
    id: row.id,
    email: row.email,
    fullname: row.fullname,
    mobile: row.mobile,
    avatar: row.avatar,
    status: Number(row.status),
    isAdmin: Number(row.is_admin) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The account with this email, whatever its case (emails are unique across the instance). */
export async function findAccountByEmail(db: Executor, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').select(['id', 'email', 'fullname', 'mobile']).where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertAccount(
  db: Executor,
  account: { id: string; homeOrganizationId: string; email: string; fullname: string; mobile: string; passwordHash: string | null; now: number },
): Promise<void> {
  await db
    .insertInto('accounts')
    .values({
      id: account.id,
      organization_id: account.homeOrganizationId,
      email: account.email,
      fullname: account.fullname,
      mobile: account.mobile,
      password_hash: account.passwordHash,
      status: 1,
      created_at: account.now,
      updated_at: account.now,
    })
    .execute();
}

export async function updateAccount(db: Executor, id: string, patch: { fullname?: string; mobile?: string; avatar?: string; email?: string; passwordHash?: string }, now: number): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ fullname: patch.fullname, mobile: patch.mobile, avatar: patch.avatar, email: patch.email, password_hash: patch.passwordHash, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Makes the account a member of the organization, unless it is one already (then nothing changes). */
export async function addMembership(db: Executor, organizationId: string, accountId: string, isAdmin: boolean, now: number): Promise<void> {
  await db
    .insertInto('organization_members')
    .values({ organization_id: organizationId, account_id: accountId, is_admin: isAdmin ? 1 : 0, status: 1, joined_at: now })
    .onConflict((oc) => oc.columns(['organization_id', 'account_id']).doNothing())
    .execute();
}

export async function updateMembership(db: Executor, organizationId: string, accountId: string, patch: { isAdmin?: boolean; status?: number }): Promise<void> {
  if (patch.isAdmin === undefined && patch.status === undefined) return;
  await db
    .updateTable('organization_members')
    .set({ is_admin: patch.isAdmin === undefined ? undefined : patch.isAdmin ? 1 : 0, status: patch.status })
    .where('organization_id', '=', organizationId)
    .where('account_id', '=', accountId)
    .execute();
}

/** One member of the organization, or undefined when the account is not one. */
export async function findMember(db: Executor, organizationId: string, accountId: string): Promise<MemberRow | undefined> {
  const row = await db
    .selectFrom('organization_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(memberColumns)
    .where('m.organization_id', '=', organizationId)
    .where('m.account_id', '=', accountId)
    .executeTakeFirst();
  return row && memberOf(row);
}

/** A page of the organization's members by name then email, optionally those whose name, email or mobile contains `search`. */
export async function listMembers(db: Executor, organizationId: string, page: { search: string; offset: number; limit: number }): Promise<{ rows: MemberRow[]; total: number }> {
  let query = db.selectFrom('organization_members as m').innerJoin('accounts as a', 'a.id', 'm.account_id').where('m.organization_id', '=', organizationId);
  if (page.search !== '') {
    const pattern = `%${page.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(a.fullname)`, 'like', sql<string>`${pattern} ESCAPE '\\'`),
        eb(sql<string>`lower(a.email)`, 'like', sql<string>`${pattern} ESCAPE '\\'`),
        eb(sql<string>`a.mobile`, 'like', sql<string>`${pattern} ESCAPE '\\'`),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    query.select(memberColumns).orderBy('a.fullname').orderBy('a.email').offset(page.offset).limit(page.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(memberOf), total: Number(count.total) };
}

function activeMemberRows(db: Executor, organizationId: string, accountIds: readonly string[]) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.id', 'a.email'])
    .where('m.organization_id', '=', organizationId)
    .where('m.account_id', 'in', accountIds)
    .where('m.status', '=', 1)
    .where('a.status', '=', 1)
    .execute();
}

/** Which of these accounts are active members of the organization with an active account. */
export async function activeMembers(db: Executor, organizationId: string, accountIds: readonly string[]): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  return new Set((await activeMemberRows(db, organizationId, accountIds)).map((r) => r.id));
}

/** The email addresses of those of these accounts that are active members (as `activeMembers`), by account id. */
export async function activeMemberEmails(db: Executor, organizationId: string, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  return new Map((await activeMemberRows(db, organizationId, accountIds)).map((r) => [r.id, r.email]));
}

/**
 * The email addresses of those of these accounts that are active (status 1) and have one, by account
 * id, whatever organization they belong to (for mail to a person, such as their notifications).
 */
export async function activeAccountEmails(db: Executor, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.selectFrom('accounts').select(['id', 'email']).where('id', 'in', accountIds).where('status', '=', 1).where('email', '<>', '').execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** Whether the account administers the organization (for the strategies that build a person's actor). */
export async function isOrganizationAdmin(db: Executor, organizationId: string, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organization_members')
    .select('is_admin')
    .where('organization_id', '=', organizationId)
    .where('account_id', '=', accountId)
    .where('status', '=', 1)
    .executeTakeFirst();
  return row !== undefined && Number(row.is_admin) === 1;
}

/** The organization a command acts in when none is named: the first one created. */
export async function firstOrganization(db: Executor): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('id').orderBy('created_at').orderBy('id').executeTakeFirst();
  return row?.id;
}

export async function organizationExists(db: Executor, organizationId: string): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst()) !== undefined;
}

/** How many active members administer the organization. */
export async function countActiveAdmins(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('is_admin', '=', 1)
    .where('status', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
