import type { Executor } from '../../db/connection.js';
import { listDepartmentRows } from './department-repository.js';
import { pathsOf } from './department-tree.js';
import { departmentsOfAccounts, groupsOfAccounts, type GroupRow } from './group-repository.js';
import type { MemberRow } from './repository.js';

/** A person as the admin API and the CLI show them in one organization. */
export interface UserView {
  accountId: string;
  email: string;
  fullname: string;
  mobile: string;
  avatar: string;
  /** 1 active, 2 disabled in this organization. */
  status: number;
  isAdmin: boolean;
  departments: Array<{ id: string; name: string; path: string; isPrimary: boolean }>;
  jobs: GroupRow[];
  orgRoles: GroupRow[];
  createdAt: number;
  updatedAt: number;
}

/** The views of these members, with their departments (and paths), jobs and roles read in one query per kind. */
export async function viewsOf(db: Executor, organizationId: string, members: readonly MemberRow[]): Promise<UserView[]> {
  const ids = members.map((m) => m.id);
  const [departmentRows, departments, jobs, orgRoles] = await Promise.all([
    listDepartmentRows(db, organizationId),
    departmentsOfAccounts(db, organizationId, ids),
    groupsOfAccounts(db, 'job', organizationId, ids),
    groupsOfAccounts(db, 'orgRole', organizationId, ids),
  ]);
  const paths = pathsOf(departmentRows);
  const names = new Map(departmentRows.map((r) => [r.id, r.name]));
  return members.map((m) => ({
    accountId: m.id,
    email: m.email,
    fullname: m.fullname,
    mobile: m.mobile,
    avatar: m.avatar,
    status: m.status,
    isAdmin: m.isAdmin,
    departments: (departments.get(m.id) ?? []).map((d) => ({ id: d.id, name: names.get(d.id) ?? '', path: paths.get(d.id) ?? '', isPrimary: d.isPrimary })),
    jobs: jobs.get(m.id) ?? [],
    orgRoles: orgRoles.get(m.id) ?? [],
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  }));
}
