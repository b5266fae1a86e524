import { forbidden } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import type { Actor } from '../../shared/actor.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { departmentsNamed, membersNamed, organizationById, organizationsOf, profileOf, type FoundMember, type LocatedDepartment } from '../people/index.js';

/**
 * The user's own view (`/v3/orgs/list`, `/v3/users/me`) and the lookups (`/v3/users/lookup`,
 * `/v3/departments/lookup`). A person acts as themselves, in the organization the token strategy
 * resolved (`orgId`, or their home one); an app key in its application's organization, as no one.
 */

/** The organization a call names (`orgId`, else `org_id`), '' for none. */
export function namedOrganization(selector: { orgId?: string; org_id?: string }): string {
  return (selector.orgId ?? selector.org_id ?? '').trim();
}

/** Whether the credential may act in the organization (a token restricted to others may not). */
export function credentialReaches(actor: Actor, organizationId: string): boolean {
  return !actor.organizationIds || actor.organizationIds.has(organizationId);
}

/**
 * The organization an organization-level call acts in: the caller's. Naming another one is refused:
 * 10106 for a person (the strategy resolved `orgId` already, so this is a call it did not see, or
 * a credential restricted to other organizations), 10005 for an app key (its application's one only).
 */
export function actingOrganization(actor: Actor, requested: string): string {
  if (actor.kind === 'appKey') {
    if (requested !== '' && requested !== actor.organizationId) throw forbidden(actor, 'an app key acts only in the organization of its application');
    return actor.organizationId;
  }
  const organizationId = requested === '' ? actor.organizationId : requested;
  if (organizationId === '') throw AppError.invalidParameters('orgId is required: it names the organization');
  if (organizationId !== actor.organizationId || !credentialReaches(actor, organizationId)) {
    throw new AppError(ErrorCode.UserTokenRestricted, 403, `this credential cannot act in the organization "${organizationId.slice(0, 80)}"`);
  }
  return organizationId;
}

/** `GET /v3/orgs/list`: the person's organizations (those the credential reaches); an app key's one. */
export async function listOrganizations(ctx: ServiceContext) {
  const { actor } = ctx;
  if (actor.kind === 'appKey' || actor.userId === null) {
    const organization = await organizationById(ctx.db, actor.organizationId);
    return { orgs: organization ? [{ ...organization, isAdmin: false, isDefault: true }] : [] };
  }
  const organizations = await organizationsOf(ctx.db, actor.userId);
  return { orgs: organizations.filter((o) => credentialReaches(actor, o.orgId)) };
}

/** `GET /v3/users/me`: the person's own profile, unmasked, with their departments in the organization acted in; app keys are no one (10005). */
export async function me(ctx: ServiceContext) {
  const { actor } = ctx;
  if (actor.userId === null) throw forbidden(actor, 'an app key acts as no person: use a personal access token');
  const profile = await profileOf(ctx.db, actor.organizationId, actor.userId);
  if (!profile) throw AppError.notFound('the person of this credential no longer exists');
  return profile;
}

/** `GET /v3/users/lookup?name=`: the organization's members with exactly this name. */
export async function lookUpMembers(ctx: ServiceContext, query: { name: string; orgId?: string; org_id?: string }): Promise<{ users: FoundMember[] }> {
  const organizationId = actingOrganization(ctx.actor, namedOrganization(query));
  return { users: await membersNamed(ctx.db, organizationId, query.name.trim()) };
}

/** `GET /v3/departments/lookup?name=`: the organization's departments with exactly this name. */
export async function lookUpDepartments(ctx: ServiceContext, query: { name: string; orgId?: string; org_id?: string }): Promise<{ departments: LocatedDepartment[] }> {
  const organizationId = actingOrganization(ctx.actor, namedOrganization(query));
  return { departments: await departmentsNamed(ctx.db, organizationId, query.name.trim()) };
}
