import type { Executor } from '../../db/connection.js';
import { listDepartmentRows } from './department-repository.js';
import { ancestorsOf } from './department-tree.js';
import { accountProfile, activeMembersNamed, membershipIn, organizationNamed, organizationsOfAccount } from './directory-repository.js';
import { departmentsOfAccounts } from './group-repository.js';
import { maskedEmail, maskedMobile } from './masking.js';

/**
 * The user's own view and the lookups (`/v3/users/me`, `/v3/orgs/list`, `/v3/users/lookup`,
 * `/v3/departments/lookup`) as the people module answers them, in one organization.
 */

/** A department as the lookups show it: `path` and `pathNodes` are the departments above it, top first. */
export interface LocatedDepartment {
  id: string;
  name: string;
  path: string;
  pathNodes: Array<{ id: string; name: string }>;
}

/** A person as the member lookup shows them: mobile and email masked. */
export interface FoundMember {
  accountId: string;
  fullname: string;
  mobile: string;
  email: string;
  departments: LocatedDepartment[];
}

/** The departments of the organization, placed in the tree, by id. */
async function locatedDepartments(db: Executor, organizationId: string): Promise<Map<string, LocatedDepartment>> {
  const rows = await listDepartmentRows(db, organizationId);
  const ancestors = ancestorsOf(rows);
  return new Map(
    rows.map((r) => {
      const above = ancestors.get(r.id) ?? [];
      return [r.id, { id: r.id, name: r.name, path: above.map((a) => a.name).join('/'), pathNodes: above }];
    }),
  );
}

/** The departments of these accounts in the organization (primary first), placed in the tree. */
async function departmentsOf(db: Executor, organizationId: string, accountIds: string[]): Promise<Map<string, LocatedDepartment[]>> {
  if (accountIds.length === 0) return new Map();
  const [located, memberships] = await Promise.all([locatedDepartments(db, organizationId), departmentsOfAccounts(db, organizationId, accountIds)]);
  return new Map(accountIds.map((id) => [id, (memberships.get(id) ?? []).flatMap((d) => located.get(d.id) ?? [])]));
}

/**
 * The organization's active members whose full name is exactly `name` (case-sensitive), with
 * masked mobile and email and their departments; at most 100.
 * @example await membersNamed(db, organizationId, 'Ada Lovelace') → [{ accountId, fullname, mobile: '138****5678', email: 'a***@x.org', departments }]
 */
export async function membersNamed(db: Executor, organizationId: string, name: string): Promise<FoundMember[]> {
  const members = await activeMembersNamed(db, organizationId, name);
  const departments = await departmentsOf(db, organizationId, members.map((m) => m.id));
  return members.map((m) => ({ accountId: m.id, fullname: m.fullname, mobile: maskedMobile(m.mobile), email: maskedEmail(m.email), departments: departments.get(m.id) ?? [] }));
}

/** The organization's departments whose name is exactly `name` (case-sensitive), the higher ones first, then by path. */
export async function departmentsNamed(db: Executor, organizationId: string, name: string): Promise<LocatedDepartment[]> {
  const named = [...(await locatedDepartments(db, organizationId)).values()].filter((d) => d.name === name);
  return named.sort((a, b) => a.pathNodes.length - b.pathNodes.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The organizations a person is an active member of, their home organization marked. */
export async function organizationsOf(db: Executor, accountId: string): Promise<Array<{ orgId: string; name: string; isAdmin: boolean; isDefault: boolean }>> {
  const [profile, organizations] = await Promise.all([accountProfile(db, accountId), organizationsOfAccount(db, accountId)]);
  return organizations.map((o) => ({ orgId: o.id, name: o.name, isAdmin: o.isAdmin, isDefault: o.id === profile?.organization_id }));
}

/** One organization by id (an app key's), or undefined. */
export async function organizationById(db: Executor, organizationId: string): Promise<{ orgId: string; name: string } | undefined> {
  const found = await organizationNamed(db, organizationId);
  return found && { orgId: found.id, name: found.name };
}

/** A person's own profile, unmasked, with their departments in the organization. */
export async function profileOf(db: Executor, organizationId: string, accountId: string) {
  const profile = await accountProfile(db, accountId);
  if (!profile) return undefined;
  const departments = organizationId === '' ? [] : ((await departmentsOf(db, organizationId, [accountId])).get(accountId) ?? []);
  return { accountId: profile.id, fullname: profile.fullname, email: profile.email, mobile: profile.mobile, avatar: profile.avatar, orgId: organizationId, departments };
}

/**
 * Whether the person is an active member of the organization, and administers it: what a strategy
 * checks before acting in an organization named by the call (`orgId`).
 */
export async function organizationMembership(db: Executor, organizationId: string, accountId: string): Promise<{ active: boolean; admin: boolean }> {
  return membershipIn(db, organizationId, accountId);
}
