import type { Executor } from '../../db/connection.js';

/**
 * SQL of an account's groups in an organization: departments, jobs and organization roles, which
 * all are named sets of people (departments also form a tree, see `department-repository.ts`).
 */

/** The two kinds of plain named groups; both tables have the same columns, as do their member tables. */
export type GroupKind = 'job' | 'orgRole';

const TABLES = {
  job: { table: 'jobs', members: 'job_members', key: 'job_id' },
  orgRole: { table: 'org_roles', members: 'org_role_members', key: 'role_id' },
} as const;

// Kysely types each table apart; the two kinds share their shapes, so one is named for both.
const groupTable = (kind: GroupKind) => TABLES[kind].table as 'jobs';
const memberTable = (kind: GroupKind) => TABLES[kind].members as 'job_members';
const keyColumn = (kind: GroupKind) => TABLES[kind].key as 'job_id';
const memberValue = (kind: GroupKind, groupId: string, accountId: string) => ({ [TABLES[kind].key]: groupId, account_id: accountId }) as { job_id: string; account_id: string };

export interface GroupRow {
  id: string;
  name: string;
}

export async function listGroups(db: Executor, kind: GroupKind, organizationId: string): Promise<GroupRow[]> {
  return db.selectFrom(groupTable(kind)).select(['id', 'name']).where('organization_id', '=', organizationId).orderBy('name').orderBy('id').execute();
}

export async function findGroup(db: Executor, kind: GroupKind, organizationId: string, id: string): Promise<GroupRow | undefined> {
  return db.selectFrom(groupTable(kind)).select(['id', 'name']).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function findGroupByName(db: Executor, kind: GroupKind, organizationId: string, name: string): Promise<GroupRow | undefined> {
  return db.selectFrom(groupTable(kind)).select(['id', 'name']).where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirst();
}

export async function insertGroup(db: Executor, kind: GroupKind, group: { id: string; organizationId: string; name: string; now: number }): Promise<void> {
  await db.insertInto(groupTable(kind)).values({ id: group.id, organization_id: group.organizationId, name: group.name, created_at: group.now }).execute();
}

export async function renameGroup(db: Executor, kind: GroupKind, id: string, name: string): Promise<void> {
  await db.updateTable(groupTable(kind)).set({ name }).where('id', '=', id).execute();
}

export async function deleteGroup(db: Executor, kind: GroupKind, id: string): Promise<void> {
  await db.deleteFrom(memberTable(kind)).where(keyColumn(kind), '=', id).execute();
  await db.deleteFrom(groupTable(kind)).where('id', '=', id).execute();
}

/** Which of these ids are groups of the organization. */
export async function existingGroups(db: Executor, kind: GroupKind, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom(groupTable(kind)).select('id').where('organization_id', '=', organizationId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The groups of one kind each account belongs to in the organization, by account. */
export async function groupsOfAccounts(db: Executor, kind: GroupKind, organizationId: string, accountIds: readonly string[]): Promise<Map<string, GroupRow[]>> {
  const byAccount = new Map<string, GroupRow[]>();
  if (accountIds.length === 0) return byAccount;
  const rows = await db
    .selectFrom(`${memberTable(kind)} as gm`)
    .innerJoin(`${groupTable(kind)} as g`, 'g.id', `gm.${keyColumn(kind)}`)
    .select(['gm.account_id', 'g.id', 'g.name'])
    .where('g.organization_id', '=', organizationId)
    .where('gm.account_id', 'in', accountIds)
    .orderBy('g.name')
    .execute();
  for (const row of rows) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), { id: row.id, name: row.name }]);
  return byAccount;
}

/** Sets the account's groups of one kind in the organization to exactly these. */
export async function replaceAccountGroups(db: Executor, kind: GroupKind, organizationId: string, accountId: string, groupIds: readonly string[]): Promise<void> {
  const ofOrganization = db.selectFrom(groupTable(kind)).select('id').where('organization_id', '=', organizationId);
  await db.deleteFrom(memberTable(kind)).where('account_id', '=', accountId).where(keyColumn(kind), 'in', ofOrganization).execute();
  if (groupIds.length > 0) await db.insertInto(memberTable(kind)).values(groupIds.map((id) => memberValue(kind, id, accountId))).execute();
}

/** Adds the account to a group unless it is in it already. */
export async function addToGroup(db: Executor, kind: GroupKind, groupId: string, accountId: string): Promise<void> {
  await db
    .insertInto(memberTable(kind))
    .values(memberValue(kind, groupId, accountId))
    .onConflict((oc) => oc.columns([keyColumn(kind), 'account_id']).doNothing())
    .execute();
}

/** An account's departments in the organization, with the one marked primary. */
export async function departmentsOfAccounts(db: Executor, organizationId: string, accountIds: readonly string[]): Promise<Map<string, Array<{ id: string; isPrimary: boolean }>>> {
  const byAccount = new Map<string, Array<{ id: string; isPrimary: boolean }>>();
  if (accountIds.length === 0) return byAccount;
  const rows = await db
    .selectFrom('department_members as dm')
    .innerJoin('departments as d', 'd.id', 'dm.department_id')
    .select(['dm.account_id', 'd.id', 'dm.is_primary'])
    .where('d.organization_id', '=', organizationId)
    .where('dm.account_id', 'in', accountIds)
    .orderBy('dm.is_primary', 'desc')
    .orderBy('d.name')
    .execute();
  for (const row of rows) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), { id: row.id, isPrimary: Number(row.is_primary) === 1 }]);
  return byAccount;
}

/** Sets the account's departments in the organization to exactly these. */
export async function replaceAccountDepartments(db: Executor, organizationId: string, accountId: string, departments: ReadonlyArray<{ id: string; isPrimary: boolean }>): Promise<void> {
  const ofOrganization = db.selectFrom('departments').select('id').where('organization_id', '=', organizationId);
  await db.deleteFrom('department_members').where('account_id', '=', accountId).where('department_id', 'in', ofOrganization).execute();
  if (departments.length > 0) {
    await db
      .insertInto('department_members')
      .values(departments.map((d) => ({ department_id: d.id, account_id: accountId, is_primary: d.isPrimary ? 1 : 0 })))
      .execute();
  }
}

/** Adds the account to a department unless it is in it already. */
export async function addToDepartment(db: Executor, departmentId: string, accountId: string, isPrimary: boolean): Promise<void> {
  await db
    .insertInto('department_members')
    .values({ department_id: departmentId, account_id: accountId, is_primary: isPrimary ? 1 : 0 })
    .onConflict((oc) => oc.columns(['department_id', 'account_id']).doNothing())
    .execute();
}
