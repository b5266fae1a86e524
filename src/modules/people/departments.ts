import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import * as repository from './department-repository.js';
import { isWithin, PATH_SEPARATOR, pathsOf, treeOf, type DepartmentNode } from './department-tree.js';
import { within, type PeopleContext } from './people-context.js';
import { memberIdsFor } from './member-references.js';

/** Departments of an organization: a tree with managers (the CLI's `departments` and `/admin/departments`). */

export interface DepartmentInput {
  name: string;
  parentId?: string | null;
  /** Managers: account ids or emails of members of the organization. */
  managers?: string[];
  position?: number;
}

/** The organization's departments as a tree, each with its path. */
export async function departmentTree(pc: PeopleContext): Promise<DepartmentNode[]> {
  const rows = await repository.listDepartmentRows(pc.db, pc.organizationId);
  return treeOf(rows, await repository.managersOf(pc.db, rows.map((r) => r.id)));
}

/** One department with its path and managers (its children listed too). */
export async function getDepartment(pc: PeopleContext, departmentId: string): Promise<DepartmentNode> {
  const found = findNode(await departmentTree(pc), departmentId);
  if (!found) throw AppError.notFound(`no department "${departmentId}" in this organization`);
  return found;
}

function findNode(nodes: DepartmentNode[], id: string): DepartmentNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = findNode(node.children, id);
    if (below) return below;
  }
  return undefined;
}

/** A department name: not empty, without the path separator. */
function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw AppError.invalidValue('name: a department needs a name');
  if (trimmed.includes(PATH_SEPARATOR)) throw AppError.invalidValue(`name: "${trimmed}" contains "${PATH_SEPARATOR}", which separates the names of a department path`);
  return trimmed;
}

/** Refuses a name another department under the same parent has (paths name departments, in imports and the CLI). */
function checkSiblingName(rows: repository.DepartmentRow[], parentId: string | null, name: string, self: string | null): void {
  const clash = rows.find((r) => r.parentId === parentId && r.name === name && r.id !== self);
  if (clash) throw AppError.alreadyExists(`name: a department "${pathsOf(rows).get(clash.id)}" exists already`);
}

/** Refuses a parent that is not a department of this organization. */
function checkParent(rows: repository.DepartmentRow[], parentId: string | null): void {
  if (parentId !== null && !rows.some((r) => r.id === parentId)) throw AppError.invalidValue(`parentId: no department "${parentId}" in this organization`);
}

export async function createDepartment(pc: PeopleContext, input: DepartmentInput): Promise<DepartmentNode> {
  const name = checkedName(input.name);
  const parentId = input.parentId ?? null;
  const id = newObjectId();
  await inTransaction(pc.db, async (trx) => {
    const inner = within(pc, trx);
    const rows = await repository.listDepartmentRows(trx, pc.organizationId);
    checkParent(rows, parentId);
    checkSiblingName(rows, parentId, name, null);
    const position = input.position ?? rows.filter((r) => r.parentId === parentId).reduce((last, r) => Math.max(last, r.position + 1), 0);
    await repository.insertDepartment(trx, { id, organizationId: pc.organizationId, parentId, name, position, now: pc.now });
    if (input.managers) await repository.replaceManagers(trx, id, await memberIdsFor(inner, input.managers, 'managers'));
  });
  return getDepartment(pc, id);
}

/** Renames, moves (`parentId`; null for the top), reorders, or sets the managers of a department. */
export async function editDepartment(pc: PeopleContext, departmentId: string, input: Partial<DepartmentInput>): Promise<DepartmentNode> {
  await inTransaction(pc.db, async (trx) => {
    const rows = await repository.listDepartmentRows(trx, pc.organizationId);
    const current = rows.find((r) => r.id === departmentId);
    if (!current) throw AppError.notFound(`no department "${departmentId}" in this organization`);
    const name = input.name === undefined ? current.name : checkedName(input.name);
    const parentId = input.parentId === undefined ? current.parentId : input.parentId;
    checkParent(rows, parentId);
    if (parentId !== null && isWithin(rows, parentId, departmentId)) {
      const paths = pathsOf(rows);
      throw AppError.invalidValue(`parentId: "${paths.get(parentId)}" is "${paths.get(departmentId)}" or lies within it; a department cannot move under itself`);
    }
    checkSiblingName(rows, parentId, name, departmentId);
    await repository.updateDepartment(trx, departmentId, { name, parentId, position: input.position });
    if (input.managers) await repository.replaceManagers(trx, departmentId, await memberIdsFor(within(pc, trx), input.managers, 'managers'));
  });
  return getDepartment(pc, departmentId);
}

/**
 * Deletes a department that has no sub-departments and no members; otherwise refuses (10002)
 * naming them, so that nobody loses their department by accident. Records that name it keep the
 * id, and read it without a name.
 */
export async function deleteDepartment(pc: PeopleContext, departmentId: string): Promise<void> {
  await inTransaction(pc.db, async (trx) => {
    const rows = await repository.listDepartmentRows(trx, pc.organizationId);
    const current = rows.find((r) => r.id === departmentId);
    if (!current) throw AppError.notFound(`no department "${departmentId}" in this organization`);
    const paths = pathsOf(rows);
    const children = rows.filter((r) => r.parentId === departmentId).map((r) => `"${paths.get(r.id)}"`);
    if (children.length > 0) throw AppError.invalidValue(`"${paths.get(departmentId)}" has sub-departments (${children.join(', ')}); move or delete them first`);
    const members = await repository.countDepartmentMembers(trx, departmentId);
    if (members > 0) throw AppError.invalidValue(`"${paths.get(departmentId)}" has ${members} member${members === 1 ? '' : 's'}; move them to other departments first`);
    await repository.deleteDepartment(trx, departmentId);
  });
}
