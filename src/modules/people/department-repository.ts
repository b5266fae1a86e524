import type { Executor } from '../../db/connection.js';

/** SQL of departments: the rows of an organization's tree, their managers and members. */

export interface DepartmentRow {
  id: string;
  parentId: string | null;
  name: string;
  position: number;
  createdAt: number;
}

/** Every department of the organization (the tree is assembled in `department-tree.ts`). */
export async function listDepartmentRows(db: Executor, organizationId: string): Promise<DepartmentRow[]> {
  const rows = await db
    .selectFrom('departments')
    .select(['id', 'parent_id', 'name', 'position', 'created_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, parentId: r.parent_id, name: r.name, position: Number(r.position), createdAt: Number(r.created_at) }));
}

export async function insertDepartment(db: Executor, department: { id: string; organizationId: string; parentId: string | null; name: string; position: number; now: number }): Promise<void> {
  await db
    .insertInto('departments')
    .values({ id: department.id, organization_id: department.organizationId, parent_id: department.parentId, name: department.name, position: department.position, created_at: department.now })
    .execute();
}

export async function updateDepartment(db: Executor, id: string, patch: { parentId?: string | null; name?: string; position?: number }): Promise<void> {
  if (patch.parentId === undefined && patch.name === undefined && patch.position === undefined) return;
  await db.updateTable('departments').set({ parent_id: patch.parentId, name: patch.name, position: patch.position }).where('id', '=', id).execute();
}

export async function deleteDepartment(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('department_managers').where('department_id', '=', id).execute();
  await db.deleteFrom('departments').where('id', '=', id).execute();
}

/** The managers of these departments, by department. */
export async function managersOf(db: Executor, departmentIds: readonly string[]): Promise<Map<string, string[]>> {
  const byDepartment = new Map<string, string[]>();
  if (departmentIds.length === 0) return byDepartment;
  const rows = await db.selectFrom('department_managers').select(['department_id', 'account_id']).where('department_id', 'in', departmentIds).orderBy('account_id').execute();
  for (const row of rows) byDepartment.set(row.department_id, [...(byDepartment.get(row.department_id) ?? []), row.account_id]);
  return byDepartment;
}

export async function replaceManagers(db: Executor, departmentId: string, accountIds: readonly string[]): Promise<void> {
  await db.deleteFrom('department_managers').where('department_id', '=', departmentId).execute();
  if (accountIds.length > 0) await db.insertInto('department_managers').values(accountIds.map((account_id) => ({ department_id: departmentId, account_id }))).execute();
}

export async function addManager(db: Executor, departmentId: string, accountId: string): Promise<void> {
  await db
    .insertInto('department_managers')
    .values({ department_id: departmentId, account_id: accountId })
    .onConflict((oc) => oc.columns(['department_id', 'account_id']).doNothing())
    .execute();
}

/** How many people belong to the department. */
export async function countDepartmentMembers(db: Executor, departmentId: string): Promise<number> {
  const row = await db.selectFrom('department_members').select((eb) => eb.fn.countAll<number>().as('n')).where('department_id', '=', departmentId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The departments of the organization these ids name. */
export async function existingDepartments(db: Executor, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('departments').select('id').where('organization_id', '=', organizationId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
