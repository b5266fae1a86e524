import { forbidden } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { appsOfOrganization, createApp } from '../apps/index.js';
import { organizationMembership } from '../people/index.js';
import { appsListedFor } from '../roles/index.js';
import { actingOrganization, credentialReaches, namedOrganization } from './service.js';

type OrganizationSelector = { orgId?: string; org_id?: string };

/**
 * `GET /v3/apps/list`: the applications of the organization the caller works in. A person sees
 * those they own or hold a role in (themselves or through a department, department tree, job or
 * organization role: the ones a token with `{prefix}-Appid` would give them rights in), except
 * those every role of theirs hides from its members (`hideAppForMembers`: still reachable by id,
 * not listed); an app key its own application.
 */
export async function listApps(ctx: ServiceContext, query: OrganizationSelector) {
  const { actor } = ctx;
  const organizationId = actingOrganization(actor, namedOrganization(query));
  const apps = await appsOfOrganization(ctx.db, organizationId);
  if (actor.kind === 'appKey' || actor.userId === null) {
    return { apps: apps.filter((a) => a.appId === actor.appId).map(({ ownerId: _owner, ...app }) => ({ ...app, isOwner: false })) };
  }
  const userId = actor.userId;
  const listed = await appsListedFor(ctx.db, organizationId, userId);
  return {
    apps: apps.filter((a) => a.ownerId === userId || listed.has(a.appId)).map(({ ownerId, ...app }) => ({ ...app, isOwner: ownerId === userId })),
  };
}

export interface NewApp extends OrganizationSelector {
  name: string;
  icon?: string;
  color?: string;
  desc?: string;
  description?: string;
}

/**
 * Whether the person administers the organization the new application goes to: the one the call
 * acts in (resolved by the strategy), or another named in the body, checked here as the strategy
 * would (the credential must reach it, the person be an active member: 10106 otherwise).
 */
async function administersTarget(ctx: ServiceContext, organizationId: string): Promise<boolean> {
  const { actor } = ctx;
  if (organizationId === actor.organizationId && credentialReaches(actor, organizationId)) return actor.organizationAdmin;
  const membership = credentialReaches(actor, organizationId) ? await organizationMembership(ctx.db, organizationId, actor.accountId) : { active: false, admin: false };
  if (!membership.active) throw new AppError(ErrorCode.UserTokenRestricted, 403, `this credential cannot act in the organization "${organizationId.slice(0, 80)}"`);
  return membership.admin;
}

/**
 * `POST /v3/apps`: a new application (with its first section) in an organization the person
 * administers, owned by them; `orgId`/`org_id` in the body or the query (they must agree), else
 * the organization the call acts in. App keys cannot (10005): a key belongs to one application.
 * @example await createOwnApp(ctx, { name: 'CRM', color: '#2196F3' }, {}) → { appId, organizationId, name, icon, color }
 */
export async function createOwnApp(ctx: ServiceContext, body: NewApp, query: OrganizationSelector) {
  const { actor } = ctx;
  if (actor.kind === 'appKey' || actor.userId === null) throw forbidden(actor, 'an app key belongs to one application and cannot create others: use a personal access token');
  const inBody = namedOrganization(body);
  const inQuery = namedOrganization(query);
  if (inBody !== '' && inQuery !== '' && inBody !== inQuery) throw AppError.invalidValue(`orgId: the body names "${inBody.slice(0, 80)}" and the query "${inQuery.slice(0, 80)}"`);
  const organizationId = inBody || inQuery || actor.organizationId;
  if (organizationId === '') throw AppError.invalidParameters('orgId is required: it names the organization');
  if (!(await administersTarget(ctx, organizationId))) throw forbidden(actor, 'only an administrator of the organization may create applications in it');
  const description = body.desc ?? body.description;
  const appId = await createApp(ctx.db, organizationId, actor.userId, { name: body.name, icon: body.icon, color: body.color, description }, ctx.now());
  // As stored: createApp trims the name and keeps icon and color as given (after checking the color).
  return { appId, organizationId, name: body.name.trim(), icon: body.icon ?? '', color: body.color ?? '' };
}
