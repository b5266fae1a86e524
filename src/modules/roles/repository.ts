import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

export type RoleRow = Selectable<MetaSchema['roles']>;
export type MemberType = 'user' | 'department' | 'departmentTree' | 'job' | 'orgRole';
export interface MemberRef {
  type: MemberType;
  id: string;
}

export async function insertRole(db: Executor, row: Insertable<MetaSchema['roles']>): Promise<void> {
  await db.insertInto('roles').values(row).execute();
}

export async function rolesOfApp(db: Executor, appId: string): Promise<RoleRow[]> {
  return db.selectFrom('roles').selectAll().where('app_id', '=', appId).orderBy('created_at').orderBy('id').execute();
}

export async function findRole(db: Executor, appId: string, roleId: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('app_id', '=', appId).where('id', '=', roleId).executeTakeFirst();
}

export async function deleteRole(db: Executor, roleId: string): Promise<void> {
  await db.deleteFrom('role_members').where('role_id', '=', roleId).execute();
  await db.deleteFrom('roles').where('id', '=', roleId).execute();
}

export async function membersOf(db: Executor, roleIds: string[]): Promise<Array<{ role_id: string; member_type: string; member_id: string }>> {
  if (roleIds.length === 0) return [];
  return db.selectFrom('role_members').select(['role_id', 'member_type', 'member_id']).where('role_id', 'in', roleIds).orderBy('created_at').orderBy('member_id').execute();
}

/** Adds members; one already there is left as it is. */
export async function addMembers(db: Executor, roleId: string, members: MemberRef[], now: number): Promise<void> {
  if (members.length === 0) return;
  await db
    .insertInto('role_members')
    .values(members.map((m) => ({ role_id: roleId, member_type: m.type, member_id: m.id, created_at: now })))
    .onConflict((oc) => oc.columns(['role_id', 'member_type', 'member_id']).doNothing())
    .execute();
}

export async function removeMembers(db: Executor, roleId: string, members: MemberRef[]): Promise<void> {
  for (const m of members) await db.deleteFrom('role_members').where('role_id', '=', roleId).where('member_type', '=', m.type).where('member_id', '=', m.id).execute();
}

/** Takes a person out of every role of an application (as a person; departments and jobs they are in keep theirs). */
export async function removeUserFromRoles(db: Executor, appId: string, accountId: string): Promise<number> {
  const roleIds = (await rolesOfApp(db, appId)).map((r) => r.id);
  if (roleIds.length === 0) return 0;
  const removed = await db.deleteFrom('role_members').where('role_id', 'in', roleIds).where('member_type', '=', 'user').where('member_id', '=', accountId).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

/** The roles of an application that any of these members hold. */
export async function rolesHeldBy(db: Executor, appId: string, members: MemberRef[]): Promise<RoleRow[]> {
  if (members.length === 0) return [];
  return db
    .selectFrom('roles')
    .selectAll('roles')
    .where('roles.app_id', '=', appId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('role_members')
          .select('role_members.role_id')
          .whereRef('role_members.role_id', '=', 'roles.id')
          .where((inner) => inner.or(members.map((m) => inner.and([inner('role_members.member_type', '=', m.type), inner('role_members.member_id', '=', m.id)])))),
      ),
    )
    .execute();
}

export async function accountNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('accounts').select(['id', 'fullname']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.fullname]));
}

export async function jobNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('jobs').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function departmentNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('departments').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The ids among `ids` of members of the organization (active or disabled there). */
export async function existingAccounts(db: Executor, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('organization_members').select('account_id').where('organization_id', '=', organizationId).where('account_id', 'in', ids).execute();
  return new Set(rows.map((r) => r.account_id));
}

/** The departments, jobs and organization roles a person is in. */
export async function groupsOf(db: Executor, accountId: string): Promise<{ departments: string[]; jobs: string[]; orgRoles: string[] }> {
  const [departments, jobs, orgRoles] = await Promise.all([
    db.selectFrom('department_members').select('department_id').where('account_id', '=', accountId).execute(),
    db.selectFrom('job_members').select('job_id').where('account_id', '=', accountId).execute(),
    db.selectFrom('org_role_members').select('role_id').where('account_id', '=', accountId).execute(),
  ]);
  return { departments: departments.map((d) => d.department_id), jobs: jobs.map((j) => j.job_id), orgRoles: orgRoles.map((r) => r.role_id) };
}

/**
 * A person's subordinates: the people of the departments they manage and of every department below
 * those (the "own and subordinates'" data scope).
 */
export async function subordinatesOf(db: Executor, accountId: string, departmentParents: () => Promise<Map<string, string | null>>): Promise<string[]> {
  const managed = (await db.selectFrom('department_managers').select('department_id').where('account_id', '=', accountId).execute()).map((m) => m.department_id);
  if (managed.length === 0) return [];
  const parents = await departmentParents();
  const below = new Set(managed);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, parent] of parents) {
      if (parent && below.has(parent) && !below.has(id)) {
        below.add(id);
        grew = true;
      }
    }
  }
  const people = await db.selectFrom('department_members').select('account_id').where('department_id', 'in', [...below]).execute();
  return [...new Set(people.map((p) => p.account_id))].filter((id) => id !== accountId);
}

/** A department's ancestors (for a person in it, `department_tree` roles of those count too). */
export async function departmentParents(db: Executor, organizationId: string): Promise<Map<string, string | null>> {
  const rows = await db.selectFrom('departments').select(['id', 'parent_id']).where('organization_id', '=', organizationId).execute();
  return new Map(rows.map((r) => [r.id, r.parent_id]));
}

/**
 * The applications of the organization in which one of these members holds a role that lists the
 * application for its members: one that does not hide it (`hideAppForMembers`), or the
 * administrators' role (administrators always see their applications).
 */
export async function appsListedFor(db: Executor, organizationId: string, members: MemberRef[], administratorsType: number): Promise<Set<string>> {
  if (members.length === 0) return new Set();
  const rows = await db
    .selectFrom('roles')
    .innerJoin('apps', 'apps.id', 'roles.app_id')
    .innerJoin('role_members', 'role_members.role_id', 'roles.id')
    .select('roles.app_id')
    .distinct()
    .where('apps.organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('roles.hide_app', '=', 0), eb('roles.role_type', '=', administratorsType)]))
    .where((eb) => eb.or(members.map((m) => eb.and([eb('role_members.member_type', '=', m.type), eb('role_members.member_id', '=', m.id)]))))
    .execute();
  return new Set(rows.map((r) => r.app_id));
}
