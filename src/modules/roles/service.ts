import { inTransaction } from '../../db/transaction.js';
import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema } from '../worksheets/index.js';
import * as repository from './repository.js';
import { normaliseRole, ROLE_TYPES, type NormalisedRole } from './role-input.js';
import { noteChange } from '../../shared/change-notices.js';
import { existingDepartments, existingGroups } from '../people/index.js';

/**
 * Roles of the caller's application: what their members may do there (`permissionScope` and, for
 * scope 0, per worksheet), and who they are. A person's grants are compiled from the roles they
 * hold (`standing.ts`); changes reach callers within the 5 seconds their standing is cached.
 */

export interface MembersInput {
  userIds?: string[];
  accountIds?: string[];
  departmentIds?: string[];
  departmentTreeIds?: string[];
  jobIds?: string[];
  orgRoleIds?: string[];
}

const MEMBER_KEYS: Array<[keyof MembersInput, repository.MemberType]> = [
  ['userIds', 'user'],
  ['accountIds', 'user'],
  ['departmentIds', 'department'],
  ['departmentTreeIds', 'departmentTree'],
  ['jobIds', 'job'],
  ['orgRoleIds', 'orgRole'],
];

function stored(row: repository.RoleRow): NormalisedRole {
  return {
    name: row.name,
    description: row.description,
    roleType: Number(row.role_type),
    permissionScope: Number(row.permission_scope) as NormalisedRole['permissionScope'],
    hideAppForMembers: Number(row.hide_app) === 1,
    globalPermissions: JSON.parse(row.global_permissions) as NormalisedRole['globalPermissions'],
    worksheetPermissions: JSON.parse(row.worksheet_permissions) as NormalisedRole['worksheetPermissions'],
    pagePermissions: JSON.parse(row.page_permissions) as NormalisedRole['pagePermissions'],
    chatbotPermissions: JSON.parse(row.chatbot_permissions) as NormalisedRole['chatbotPermissions'],
  };
}

export function roleDefinitionOf(row: repository.RoleRow) {
  return stored(row);
}

/** Every worksheet, view, field and page a role names must be the application's (10002 naming the key); fields are kept by id. */
async function checkReferences(ctx: ServiceContext, role: NormalisedRole): Promise<void> {
  const appId = ctx.actor.appId;
  const worksheets = new Set((await ctx.db.selectFrom('worksheets').select('id').where('app_id', '=', appId).execute()).map((w) => w.id));
  for (const [i, permission] of role.worksheetPermissions.entries()) {
    const at = `worksheetPermissions[${i}]`;
    if (!worksheets.has(permission.id)) throw AppError.invalidValue(`${at}.id: no worksheet "${permission.id.slice(0, 80)}" in this application`);
    const schema = await loadSchema(ctx, permission.id);
    const views = new Set((await ctx.db.selectFrom('views').select('id').where('worksheet_id', '=', schema.id).execute()).map((v) => v.id));
    permission.recordPermissionInViews.forEach((v, j) => {
      if (!views.has(v.viewId)) throw AppError.invalidValue(`${at}.recordPermissionInViews[${j}].viewId: no view "${v.viewId.slice(0, 80)}" in the worksheet "${schema.name}"`);
    });
    permission.fieldPermissions.forEach((f, j) => {
      const field = schema.byKey.get(f.id);
      if (!field) throw AppError.invalidValue(`${at}.fieldPermissions[${j}].id: no field "${f.id.slice(0, 80)}" in the worksheet "${schema.name}"`);
      f.id = field.id;
    });
  }
  const pages = new Set((await ctx.db.selectFrom('custom_pages').select('id').where('app_id', '=', appId).execute()).map((p) => p.id));
  role.pagePermissions.forEach((p, i) => {
    if (!pages.has(p.id)) throw AppError.invalidValue(`pagePermissions[${i}].id: no custom page "${p.id.slice(0, 80)}" in this application`);
  });
  const chatbots = new Set((await ctx.db.selectFrom('chatbots').select('id').where('app_id', '=', appId).execute()).map((c) => c.id));
  role.chatbotPermissions.forEach((c, i) => {
    if (!chatbots.has(c.id)) throw AppError.invalidValue(`chatbotPermissions[${i}].id: no chatbot "${c.id.slice(0, 80)}" in this application`);
  });
}

async function roleOf(ctx: ServiceContext, roleId: string): Promise<repository.RoleRow> {
  const row = await repository.findRole(ctx.db, ctx.actor.appId, roleId);
  if (!row) throw AppError.notFound(`role_id: no role "${roleId.slice(0, 80)}" in this application`);
  return row;
}

/** The members of roles, named, in the public shapes. */
async function presentMembers(db: Executor, roleIds: string[]) {
  const members = await repository.membersOf(db, roleIds);
  const ids = (type: string) => [...new Set(members.filter((m) => m.member_type === type).map((m) => m.member_id))];
  const people = await repository.accountNames(db, ids('user'));
  const departments = await repository.departmentNames(db, [...ids('department'), ...ids('departmentTree')]);
  const jobs = await repository.jobNames(db, ids('job'));
  return (roleId: string) => {
    const of = (type: string) => members.filter((m) => m.role_id === roleId && m.member_type === type).map((m) => m.member_id);
    return {
      accounts: of('user').map((id) => ({ accountId: id, fullname: people.get(id) ?? '', avatar: '' })),
      departments: of('department').map((id) => ({ id, name: departments.get(id) ?? '' })),
      departmentTrees: of('departmentTree').map((id) => ({ id, name: departments.get(id) ?? '' })),
      jobs: of('job').map((id) => ({ id, name: jobs.get(id) ?? '' })),
      orgRoleIds: of('orgRole'),
    };
  };
}

export async function listRoles(ctx: ServiceContext) {
  const rows = await repository.rolesOfApp(ctx.db, ctx.actor.appId);
  const membersOf = await presentMembers(ctx.db, rows.map((r) => r.id));
  return { roles: rows.map((row) => ({ id: row.id, name: row.name, roleType: String(row.role_type), description: row.description, ...membersOf(row.id) })) };
}

export async function createRole(ctx: ServiceContext, body: Record<string, unknown>) {
  const role = normaliseRole(body);
  await checkReferences(ctx, role);
  const id = newObjectId();
  const now = ctx.now();
  await repository.insertRole(ctx.db, {
    id,
    app_id: ctx.actor.appId,
    name: role.name,
    description: role.description,
    role_type: role.roleType,
    permission_scope: role.permissionScope,
    hide_app: role.hideAppForMembers ? 1 : 0,
    global_permissions: JSON.stringify(role.globalPermissions),
    worksheet_permissions: JSON.stringify(role.worksheetPermissions),
    page_permissions: JSON.stringify(role.pagePermissions),
    chatbot_permissions: JSON.stringify(role.chatbotPermissions),
    created_at: now,
    updated_at: now,
  });
  noteChange();
  return { id, name: role.name, roleType: role.roleType, desc: role.description, users: [], departments: [], departmentTrees: [], projectOrganizes: [], jobs: [] };
}

export async function getRole(ctx: ServiceContext, roleId: string) {
  const row = await roleOf(ctx, roleId);
  const role = stored(row);
  const members = (await presentMembers(ctx.db, [row.id]))(row.id);
  const scoped = role.permissionScope === 0;
  return {
    id: row.id,
    name: role.name,
    description: role.description,
    permissionScope: role.permissionScope,
    type: role.roleType,
    hideAppForMembers: role.hideAppForMembers,
    ...(scoped ? {} : { globalPermissions: role.globalPermissions }),
    ...(scoped ? { worksheetPermissions: role.worksheetPermissions, pagePermissions: role.pagePermissions, chatbotPermissions: role.chatbotPermissions } : {}),
    ...members,
  };
}

export async function deleteRole(ctx: ServiceContext, roleId: string): Promise<void> {
  const row = await roleOf(ctx, roleId);
  await inTransaction(ctx.db, (trx) => repository.deleteRole(trx, row.id));
  noteChange();
}

const MEMBER_WORDS: Record<repository.MemberType, string> = { user: 'person', department: 'department', departmentTree: 'department', job: 'job', orgRole: 'organization role' };

async function knownMembers(ctx: ServiceContext, type: repository.MemberType, ids: string[]): Promise<Set<string>> {
  const org = ctx.actor.organizationId;
  if (type === 'user') return repository.existingAccounts(ctx.db, org, ids);
  if (type === 'job') return existingGroups(ctx.db, 'job', org, ids);
  if (type === 'orgRole') return existingGroups(ctx.db, 'orgRole', org, ids);
  return existingDepartments(ctx.db, org, ids);
}

/** The members a body names (each list by its key), checked against the organization (10002 naming the key and id). */
async function membersIn(ctx: ServiceContext, body: MembersInput): Promise<repository.MemberRef[]> {
  const members: repository.MemberRef[] = [];
  for (const [key, type] of MEMBER_KEYS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value) || value.some((id) => typeof id !== 'string' || id.trim() === '')) throw AppError.invalidValue(`${key}: must be an array of ids`);
    const ids = [...new Set(value.map((id) => id.trim()))];
    const known = await knownMembers(ctx, type, ids);
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw AppError.invalidValue(`${key}: no ${MEMBER_WORDS[type]} "${unknown.slice(0, 80)}" in the organization`);
    members.push(...ids.map((id) => ({ type, id })));
  }
  if (members.length === 0) throw AppError.invalidParameters('name at least one member: userIds, departmentIds, departmentTreeIds, jobIds or orgRoleIds');
  return members;
}

export async function addRoleMembers(ctx: ServiceContext, roleId: string, body: MembersInput): Promise<void> {
  const row = await roleOf(ctx, roleId);
  const members = await membersIn(ctx, body);
  await repository.addMembers(ctx.db, row.id, members, ctx.now());
  noteChange();
}

export async function removeRoleMembers(ctx: ServiceContext, roleId: string, body: MembersInput): Promise<void> {
  const row = await roleOf(ctx, roleId);
  const members = await membersIn(ctx, body);
  await inTransaction(ctx.db, (trx) => repository.removeMembers(trx, row.id, members));
  noteChange();
}

export async function removeUserFromAllRoles(ctx: ServiceContext, userId: string): Promise<void> {
  if ((await repository.existingAccounts(ctx.db, ctx.actor.organizationId, [userId])).size === 0) throw AppError.notFound(`user_id: no person "${userId.slice(0, 80)}" in the organization`);
  await repository.removeUserFromRoles(ctx.db, ctx.actor.appId, userId);
  noteChange();
}

export { ROLE_TYPES };
