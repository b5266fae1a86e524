import type { Executor } from '../../db/connection.js';
import { PSEUDO_USERS } from '../../shared/actor.js';
import type { AssigneeQuery } from '../../workflow/node-type.js';
import { accountsInGroups, activeMembers, departmentManagersOf } from '../people/index.js';
import { roleMemberRefs } from '../roles/index.js';

/**
 * The accounts an assignee query names now: the people given, the holders of the application's
 * roles (people, departments, department trees, jobs, organization roles), the people of the
 * departments, jobs and organization roles, the initiator and their department's manager. Only
 * active members of the organization, in that order, each once.
 * @example await resolveAssignees(db, orgId, appId, initiatorId, { users: [], roles: [roleId], … })
 */
export async function resolveAssignees(db: Executor, organizationId: string, appId: string, initiatorId: string, query: AssigneeQuery): Promise<string[]> {
  const users = [...query.users];
  const groups = { departments: [...query.departments], departmentTrees: [] as string[], jobs: [...query.jobs], orgRoles: [...query.orgRoles] };
  for (const member of await roleMemberRefs(db, appId, query.roles)) {
    if (member.type === 'user') users.push(member.id);
    else if (member.type === 'department') groups.departments.push(member.id);
    else if (member.type === 'departmentTree') groups.departmentTrees.push(member.id);
    else if (member.type === 'job') groups.jobs.push(member.id);
    else groups.orgRoles.push(member.id);
  }
  const person = !PSEUDO_USERS.has(initiatorId);
  const named = [
    ...users,
    ...(await accountsInGroups(db, organizationId, groups)),
    ...(query.initiator && person ? [initiatorId] : []),
    ...(query.initiatorManager && person ? await departmentManagersOf(db, organizationId, initiatorId) : []),
  ];
  const unique = [...new Set(named)].filter((id) => !PSEUDO_USERS.has(id));
  const active = await activeMembers(db, organizationId, unique);
  return unique.filter((id) => active.has(id));
}
