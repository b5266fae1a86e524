import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newGuid, newObjectId } from '../../shared/ids.js';
import * as departments from './department-repository.js';
import { PATH_SEPARATOR, pathsOf } from './department-tree.js';
import { addToDepartment, addToGroup, findGroupByName, insertGroup, type GroupKind } from './group-repository.js';
import { parseImportFile, type ImportDepartment, type ImportUser } from './import-format.js';
import { memberIdsFor } from './member-references.js';
import { within, type PeopleContext } from './people-context.js';
import * as accounts from './repository.js';
import { checkedEmail, checkedMobile } from './contact-details.js';

/** What an import did: new and already present things of each kind. */
export interface ImportReport {
  departments: { created: number; existing: number };
  jobs: { created: number; existing: number };
  orgRoles: { created: number; existing: number };
  users: { created: number; updated: number };
}

/**
 * Loads departments, jobs, organization roles and people from a file (`tabularium org import`),
 * all or nothing in one transaction. Importing the same file again changes nothing: departments
 * are matched by path, jobs and roles by name, people by email (their name and mobile are
 * updated). Memberships and managers are added, never removed. New people get no password; an
 * administrator sets one (`users reset-password`).
 */
export async function importOrganization(pc: PeopleContext, file: unknown): Promise<ImportReport> {
  const parsed = parseImportFile(file);
  return inTransaction(pc.db, async (trx) => {
    const inner = within(pc, trx);
    const report: ImportReport = { departments: { created: 0, existing: 0 }, jobs: { created: 0, existing: 0 }, orgRoles: { created: 0, existing: 0 }, users: { created: 0, updated: 0 } };
    const rows = await departments.listDepartmentRows(trx, pc.organizationId);
    const byPath = new Map([...pathsOf(rows)].map(([id, path]) => [path, id]));
    // New departments go after their existing siblings.
    const siblings = new Map<string | null, number>();
    for (const row of rows) siblings.set(row.parentId, Math.max(siblings.get(row.parentId) ?? 0, row.position + 1));
    const managers: Array<{ departmentId: string; emails: string[]; where: string }> = [];

    const importDepartment = async (entry: ImportDepartment, parentPath: string | null, where: string): Promise<void> => {
      const name = entry.name.trim();
      if (name.includes(PATH_SEPARATOR)) throw AppError.invalidValue(`${where}.name: "${name}" contains "${PATH_SEPARATOR}", which separates the names of a department path`);
      const parent = parentPath ?? entry.parent ?? null;
      const parentId = parent === null ? null : byPath.get(parent);
      if (parentId === undefined) throw AppError.invalidValue(`${where}.parent: no department "${parent}" earlier in the file or in the organization`);
      const path = parent === null ? name : `${parent}${PATH_SEPARATOR}${name}`;
      let id = byPath.get(path);
      if (id === undefined) {
        id = newObjectId();
        const position = siblings.get(parentId) ?? 0;
        siblings.set(parentId, position + 1);
        await departments.insertDepartment(trx, { id, organizationId: pc.organizationId, parentId, name, position, now: pc.now });
        byPath.set(path, id);
        report.departments.created++;
      } else report.departments.existing++;
      if (entry.managers?.length) managers.push({ departmentId: id, emails: entry.managers, where: `${where}.managers` });
      for (const [index, child] of (entry.children ?? []).entries()) await importDepartment(child, path, `${where}.children[${index}]`);
    };
    for (const [index, entry] of (parsed.departments ?? []).entries()) await importDepartment(entry, null, `departments[${index}]`);

    const groups: Record<GroupKind, Map<string, string>> = { job: new Map(), orgRole: new Map() };
    for (const [kind, names, counts] of [['job', parsed.jobs, report.jobs], ['orgRole', parsed.orgRoles, report.orgRoles]] as const) {
      for (const name of new Set((names ?? []).map((n) => n.trim()))) {
        const found = await findGroupByName(trx, kind, pc.organizationId, name);
        const id = found?.id ?? newObjectId();
        if (found) counts.existing++;
        else {
          await insertGroup(trx, kind, { id, organizationId: pc.organizationId, name, now: pc.now });
          counts.created++;
        }
        groups[kind].set(name, id);
      }
    }
    const groupId = async (kind: GroupKind, name: string, where: string): Promise<string> => {
      const id = groups[kind].get(name) ?? (await findGroupByName(trx, kind, pc.organizationId, name))?.id;
      if (id === undefined) throw AppError.invalidValue(`${where}: no ${kind === 'job' ? 'job' : 'organization role'} "${name}" in the file or in the organization`);
      return id;
    };

    for (const [index, user] of (parsed.users ?? []).entries()) {
      const where = `users[${index}]`;
      const accountId = await importUser(inner, user, where, report);
      const departmentPaths = [...new Set([...(user.departments ?? []), ...(user.primaryDepartment ? [user.primaryDepartment] : [])])];
      for (const [i, path] of departmentPaths.entries()) {
        const id = byPath.get(path);
        if (id === undefined) throw AppError.invalidValue(`${where}.departments[${i}]: no department "${path}" in the file or in the organization`);
        await addToDepartment(trx, id, accountId, path === (user.primaryDepartment ?? departmentPaths[0]));
      }
      for (const [kind, field] of [['job', 'jobs'], ['orgRole', 'orgRoles']] as const) {
        for (const [i, name] of (user[field] ?? []).entries()) await addToGroup(trx, kind, await groupId(kind, name.trim(), `${where}.${field}[${i}]`), accountId);
      }
    }
    for (const { departmentId, emails, where } of managers) {
      for (const id of await memberIdsFor(inner, emails, where)) await departments.addManager(trx, departmentId, id);
    }
    return report;
  });
}

/** Creates the person or updates their name and mobile, and makes them a member of the organization. */
async function importUser(pc: PeopleContext, user: ImportUser, where: string, report: ImportReport): Promise<string> {
  const email = checkedEmail(user.email, `${where}.email`);
  const mobile = user.mobile === undefined ? undefined : checkedMobile(user.mobile, `${where}.mobile`);
  const known = await accounts.findAccountByEmail(pc.db, email);
  const id = known?.id ?? newGuid();
  if (known) {
    await accounts.updateAccount(pc.db, id, { fullname: user.fullname.trim(), mobile }, pc.now);
    report.users.updated++;
  } else {
    await accounts.insertAccount(pc.db, { id, homeOrganizationId: pc.organizationId, email, fullname: user.fullname.trim(), mobile: mobile ?? '', passwordHash: null, now: pc.now });
    report.users.created++;
  }
  await accounts.addMembership(pc.db, pc.organizationId, id, user.admin === true, pc.now);
  if (user.admin === true) await accounts.updateMembership(pc.db, pc.organizationId, id, { isAdmin: true });
  return id;
}
