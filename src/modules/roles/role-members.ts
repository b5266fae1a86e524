import type { Executor } from '../../db/connection.js';
import type { MemberRef, MemberType } from './repository.js';

/**
 * Who holds these roles of an application, as they were given: people, departments, department
 * trees, jobs and organization roles (ids of other applications' roles are ignored).
 * @example await roleMemberRefs(db, appId, [roleId]) // → [{ type: 'user', id: 'a1' }, { type: 'department', id: 'd1' }]
 */
export async function roleMemberRefs(db: Executor, appId: string, roleIds: readonly string[]): Promise<MemberRef[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('role_members')
    .innerJoin('roles', 'roles.id', 'role_members.role_id')
    .select(['role_members.member_type', 'role_members.member_id'])
    .where('roles.app_id', '=', appId)
    .where('roles.id', 'in', [...roleIds])
    .orderBy('role_members.created_at')
    .orderBy('role_members.member_id')
    .execute();
  return rows.map((r) => ({ type: r.member_type as MemberType, id: r.member_id }));
}
