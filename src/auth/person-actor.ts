import { MEMBER_WITHOUT_ROLE, SCOPES } from '../access/index.js';
import type { Executor } from '../db/connection.js';
import { organizationMembership } from '../modules/people/index.js';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { appStandingCache } from './app-standing-cache.js';
import { headerValue, type AuthRequest } from './auth-strategy.js';

/** How long a person's membership of an organization is trusted before it is read again. */
const MEMBERSHIP_CACHE_MS = 5_000;

/**
 * A checked credential that acts as a person (a personal access token, a signed-in session), with
 * what narrows it. The strategy has checked the credential itself; what remains is where it acts.
 */
export interface PersonCredential {
  kind: 'token' | 'session';
  /** What messages call the credential: `personal access token`, `session`. */
  noun: string;
  credentialId: string;
  accountId: string;
  /** The organization the person's account was made in. */
  homeOrganizationId: string;
  /** Whether the person administers their home organization (the admin API acts there). */
  homeAdmin: boolean;
  /** null: not narrowed by scopes (a session). */
  scopes: ReadonlySet<string> | null;
  /** null: all of the person's applications. */
  appIds: ReadonlySet<string> | null;
  /** null: all of the person's organizations. */
  organizationIds: ReadonlySet<string> | null;
}

interface Membership {
  active: boolean;
  admin: boolean;
  loadedAt: number;
}

/** The organization a call above applications names: `orgId` or `org_id` in the query ('' for none). */
function requestedOrganization(query: Readonly<Record<string, unknown>>): string {
  const named = query.orgId ?? query.org_id;
  return typeof named === 'string' ? named.trim() : '';
}

/**
 * Where a person's credential acts, the same for every credential of a person: on
 * application-level calls in the application `{prefix}-Appid` names (missing: 10001 naming the
 * header; unknown: 10007), with the owner administering it and anyone else holding what their roles
 * grant (`modules/roles/standing.ts`, cached 5 s); above applications in the organization `orgId`
 * (or `org_id`) names, else the home one (organization-level scopes always check it, user-level ones
 * only when one is named). An application or organization outside the credential's reach, or one the
 * person is not an active member of: 10106.
 * @example const actor = await resolve({ kind: 'session', noun: 'session', … }, request, clock())
 */
export function personActorResolver(db: Executor, headerPrefix: string) {
  const appHeader = `${headerPrefix.toLowerCase()}-appid`;
  const standings = appStandingCache(db);
  const memberships = new Map<string, Membership>();

  async function membershipIn(accountId: string, organizationId: string, now: number): Promise<Membership> {
    const key = `${accountId}\u0000${organizationId}`;
    const hit = memberships.get(key);
    if (hit && now - hit.loadedAt < MEMBERSHIP_CACHE_MS) return hit;
    const membership = { ...(await organizationMembership(db, organizationId, accountId)), loadedAt: now };
    memberships.set(key, membership);
    return membership;
  }

  return async function resolve(credential: PersonCredential, { headers, query, routeScope }: AuthRequest, now: number): Promise<Actor> {
    const { noun } = credential;
    const person = credential.kind === 'token' ? 'the person of this token' : 'the person of this session';
    const base = { kind: credential.kind, userId: credential.accountId, accountId: credential.accountId, credentialId: credential.credentialId, scopes: credential.scopes, organizationIds: credential.organizationIds };
    const level = routeScope ? SCOPES[routeScope].level : null;
    const appId = level === 'app' || level === null ? (headerValue(headers, appHeader)?.trim() ?? '') : '';
    if (appId === '') {
      if (level === 'app') throw AppError.invalidParameters(`the ${headerPrefix}-Appid header is required with a ${noun}: it names the application`);
      const named = level === null ? '' : requestedOrganization(query);
      // Organization-level calls act in the organization named by `orgId`, or the person's home one;
      // user-level calls only when one is named. Either way the credential and a membership must allow it.
      if (named === '' && level !== 'org') return { ...base, appId: '', organizationId: credential.homeOrganizationId, grants: MEMBER_WITHOUT_ROLE, organizationAdmin: credential.homeAdmin };
      const organizationId = named === '' ? credential.homeOrganizationId : named;
      if (credential.organizationIds && !credential.organizationIds.has(organizationId)) throw new AppError(ErrorCode.UserTokenRestricted, 403, `this ${noun} is not for the organization "${organizationId.slice(0, 80)}"`);
      const membership = await membershipIn(credential.accountId, organizationId, now);
      if (!membership.active) throw new AppError(ErrorCode.UserTokenRestricted, 403, `${person} is not a member of the organization "${organizationId.slice(0, 80)}"`);
      return { ...base, appId: '', organizationId, grants: MEMBER_WITHOUT_ROLE, organizationAdmin: membership.admin };
    }
    if (credential.appIds && !credential.appIds.has(appId)) throw new AppError(ErrorCode.UserTokenRestricted, 403, `this ${noun} is not for the application "${appId.slice(0, 80)}"`);
    const standing = await standings.of(credential.accountId, appId, now);
    if (!standing) throw AppError.notFound(`application "${appId.slice(0, 80)}" (${headerPrefix}-Appid) does not exist`);
    if (credential.organizationIds && !credential.organizationIds.has(standing.organizationId)) throw new AppError(ErrorCode.UserTokenRestricted, 403, `this ${noun} is not for the organization of this application`);
    if (!standing.member) throw new AppError(ErrorCode.UserTokenRestricted, 403, `${person} is not a member of the organization of this application`);
    return { ...base, appId, organizationId: standing.organizationId, grants: standing.grants, organizationAdmin: standing.organizationAdmin };
  };
}
