import { administratorGrants, grantsFromRoles, type Grants } from '../../access/index.js';
import { viewFilters } from '../views/index.js';
import type { Executor } from '../../db/connection.js';
import * as repository from './repository.js';
import { roleDefinitionOf, ROLE_TYPES } from './service.js';
import { organizationMembership } from '../people/index.js';

/** A person's place in one application: its organization, whether they are an active member of it (and administer it), and their grants. */
export interface Standing {
  organizationId: string;
  member: boolean;
  organizationAdmin: boolean;
  grants: Grants;
}

/** Reads the organization's department tree (parent of each department) on first ask, and only once. */
function onceDepartmentParents(db: Executor, organizationId: string): () => Promise<Map<string, string | null>> {
  let parents: Promise<Map<string, string | null>> | null = null;
  return () => (parents ??= repository.departmentParents(db, organizationId));
}

/**
 * Who a person is for role membership: themselves, their departments (`department`), those and every
 * department above them (`departmentTree`: a role given to a tree reaches the people of its
 * sub-departments), their jobs and their organization roles.
 */
async function membershipsOf(db: Executor, accountId: string, departmentParents: () => Promise<Map<string, string | null>>): Promise<repository.MemberRef[]> {
  const groups = await repository.groupsOf(db, accountId);
  const parents = groups.departments.length > 0 ? await departmentParents() : new Map<string, string | null>();
  const trees = new Set<string>();
  for (const department of groups.departments) {
    for (let at: string | null | undefined = department; at && !trees.has(at); at = parents.get(at)) trees.add(at);
  }
  return [
    { type: 'user', id: accountId },
    ...groups.departments.map((id) => ({ type: 'department' as const, id })),
    ...[...trees].map((id) => ({ type: 'departmentTree' as const, id })),
    ...groups.jobs.map((id) => ({ type: 'job' as const, id })),
    ...groups.orgRoles.map((id) => ({ type: 'orgRole' as const, id })),
  ];
}

/**
 * A person's grants in an application: its owner, and the members of its administrators' role,
 * administer it; anyone else has what the roles they hold grant, added up (none: no worksheet).
 * Null when the application does not exist.
 */
export async function standingInApp(db: Executor, accountId: string, appId: string): Promise<Standing | null> {
  const app = await db.selectFrom('apps').select(['organization_id', 'owner_id']).where('id', '=', appId).executeTakeFirst();
  if (!app) return null;
  const membership = await organizationMembership(db, app.organization_id, accountId);
  const base = { organizationId: app.organization_id, member: membership.active, organizationAdmin: membership.admin };
  if (app.owner_id === accountId) return { ...base, grants: administratorGrants(false) };
  // The department tree is read at most once, for the memberships and the subordinates alike.
  const parents = onceDepartmentParents(db, app.organization_id);
  const held = await repository.rolesHeldBy(db, appId, await membershipsOf(db, accountId, parents));
  if (held.some((role) => Number(role.role_type) === ROLE_TYPES.administrators)) return { ...base, grants: administratorGrants(false) };
  const subordinates = held.length > 0 ? await repository.subordinatesOf(db, accountId, parents) : [];
  const roles = held.map(roleDefinitionOf);
  // The filters of the views the roles give rights through, read with the roles (not per request).
  const views = roles.flatMap((role) => (role.permissionScope === 0 ? role.worksheetPermissions.flatMap((w) => w.recordPermissionInViews.map((v) => v.viewId)) : []));
  return { ...base, grants: grantsFromRoles(roles, subordinates, await viewFilters(db, views)) };
}

/**
 * The applications of the organization listed for the person (`GET /v3/apps/list`; owners are added
 * there): those in which they hold a role, themselves or through a department, department tree, job
 * or organization role, unless every such role hides the application from its members
 * (`hideAppForMembers`; the administrators' role never does).
 */
export async function appsListedFor(db: Executor, organizationId: string, accountId: string): Promise<Set<string>> {
  return repository.appsListedFor(db, organizationId, await membershipsOf(db, accountId, onceDepartmentParents(db, organizationId)), ROLE_TYPES.administrators);
}
