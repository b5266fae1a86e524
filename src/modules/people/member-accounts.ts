import type { Executor } from '../../db/connection.js';
import { listDepartmentRows, managersOf } from './department-repository.js';
import { departmentsOfAccounts } from './group-repository.js';
import { activeMembers } from './repository.js';

/** Groups of people of one organization, by id. `departmentTrees` reach the departments below too. */
export interface PeopleGroups {
  departments: readonly string[];
  departmentTrees: readonly string[];
  jobs: readonly string[];
  orgRoles: readonly string[];
}

/** The departments named, with every department below the `trees` (a cycle in the tree is walked once). */
async function departmentsReached(db: Executor, organizationId: string, groups: PeopleGroups): Promise<string[]> {
  if (groups.departmentTrees.length === 0) return [...groups.departments];
  const reached = new Set([...groups.departments, ...groups.departmentTrees]);
  const rows = await listDepartmentRows(db, organizationId);
  const below = new Set(groups.departmentTrees);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (row.parentId && below.has(row.parentId) && !below.has(row.id)) {
        below.add(row.id);
        reached.add(row.id);
        grew = true;
      }
    }
  }
  return [...reached];
}

/**
 * The accounts in these departments, jobs and organization roles of the organization, in a stable
 * order (by group, then account id), each once. Whether they are active members is the caller's to ask.
 * @example await accountsInGroups(db, orgId, { departments: ['d-sales'], departmentTrees: [], jobs: [], orgRoles: [] })
 */
export async function accountsInGroups(db: Executor, organizationId: string, groups: PeopleGroups): Promise<string[]> {
  const departments = await departmentsReached(db, organizationId, groups);
  const [inDepartments, inJobs, inOrgRoles] = await Promise.all([
    departments.length === 0 ? [] : db.selectFrom('department_members').select('account_id').where('department_id', 'in', departments).orderBy('department_id').orderBy('account_id').execute(),
    groups.jobs.length === 0 ? [] : db.selectFrom('job_members').select('account_id').where('job_id', 'in', [...groups.jobs]).orderBy('job_id').orderBy('account_id').execute(),
    groups.orgRoles.length === 0 ? [] : db.selectFrom('org_role_members').select('account_id').where('role_id', 'in', [...groups.orgRoles]).orderBy('role_id').orderBy('account_id').execute(),
  ]);
  return [...new Set([...inDepartments, ...inJobs, ...inOrgRoles].map((r) => r.account_id))];
}

/**
 * The manager(s) of a person's department: of their primary department (else of each of theirs);
 * when they manage it themselves, of the department above, and so on up the tree. Active members only.
 * @example await departmentManagersOf(db, orgId, initiatorId) // → ['lead-1']
 */
export async function departmentManagersOf(db: Executor, organizationId: string, accountId: string): Promise<string[]> {
  const own = (await departmentsOfAccounts(db, organizationId, [accountId])).get(accountId) ?? [];
  if (own.length === 0) return [];
  const primary = own.filter((d) => d.isPrimary);
  let departments = (primary.length > 0 ? primary : own).map((d) => d.id);
  let parents: Map<string, string | null> | null = null;
  const seen = new Set<string>();
  while (departments.length > 0) {
    departments.forEach((d) => seen.add(d));
    const managers = [...(await managersOf(db, departments)).values()].flat().filter((id) => id !== accountId);
    const active = await activeMembers(db, organizationId, managers);
    const found = [...new Set(managers.filter((id) => active.has(id)))];
    if (found.length > 0) return found;
    parents ??= new Map((await listDepartmentRows(db, organizationId)).map((r) => [r.id, r.parentId]));
    departments = [...new Set(departments.map((d) => parents!.get(d)).filter((p): p is string => !!p && !seen.has(p)))];
  }
  return [];
}
