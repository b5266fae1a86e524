import { MEMBER_WITHOUT_ROLE, SCOPES } from '../access/index.js';
import type { Executor } from '../db/connection.js';
import { findTokenByHash, noteTokenUse } from '../modules/access-tokens/index.js';
import { TOKEN_PREFIX, tokenHash } from '../modules/access-tokens/index.js';
import { administersOrganization, organizationMembership } from '../modules/people/index.js';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { appStandingCache } from './app-standing-cache.js';
import { headerValue, type AuthStrategy } from './auth-strategy.js';

/**
 * How long a token's check is trusted before it is read again: a revocation (or an expiry, or a
 * person disabled) takes effect within this time in every process, at once in the one that made it.
 */
const TOKEN_CACHE_MS = 5_000;

interface CheckedToken {
  id: string;
  accountId: string;
  homeOrganizationId: string;
  scopes: ReadonlySet<string>;
  appIds: ReadonlySet<string> | null;
  organizationIds: ReadonlySet<string> | null;
  expiresAt: number | null;
  usable: 'yes' | 'revoked' | 'disabled';
  /** Whether the person administers their home organization (the admin API acts there). */
  homeAdmin: boolean;
  loadedAt: number;
}



interface Membership {
  active: boolean;
  admin: boolean;
  loadedAt: number;
}

const setOf = (json: string | null) => (json === null ? null : new Set(JSON.parse(json) as string[]));

/** The organization a call above applications names: `orgId` or `org_id` in the query ('' for none). */
function requestedOrganization(query: Readonly<Record<string, unknown>>): string {
  const named = query.orgId ?? query.org_id;
  return typeof named === 'string' ? named.trim() : '';
}

/**
 * Personal access tokens: `Authorization: Bearer pat_…` (or the bare token), with
 * `{prefix}-Appid` naming the application on application-level calls. The token acts as its person:
 * the application's owner and its administrators' role administer it; anyone else has what their
 * roles grant (`modules/roles/standing.ts`), within 5 seconds of a change. Unknown token:
 * 10101; revoked, expired or its person disabled: 10105; an application outside the token's
 * applications or organizations, or of an organization the person is not in: 10106.
 * Calls above applications act in an organization: the one `orgId` (or `org_id`) names in the
 * query, else the person's home organization (organization-level scopes always check it; user-level
 * ones only when one is named); outside the token's organizations, or one the person is not an
 * active member of: 10106. `{prefix}-Appid` is read only on application-level calls (and the admin API).
 */
export function createTokenStrategy(db: Executor, headerPrefix: string, clock: () => number) {
  const appHeader = `${headerPrefix.toLowerCase()}-appid`;
  const tokens = new Map<string, CheckedToken>();
  const standings = appStandingCache(db);
  const memberships = new Map<string, Membership>();

  async function membershipIn(accountId: string, organizationId: string, now: number): Promise<Membership> {
    const key = `${accountId}\u0000${organizationId}`;
    const hit = memberships.get(key);
    if (hit && now - hit.loadedAt < TOKEN_CACHE_MS) return hit;
    const membership = { ...(await organizationMembership(db, organizationId, accountId)), loadedAt: now };
    memberships.set(key, membership);
    return membership;
  }

  async function checkToken(hash: string, now: number): Promise<CheckedToken | null> {
    const hit = tokens.get(hash);
    if (hit && now - hit.loadedAt < TOKEN_CACHE_MS) return hit;
    const row = await findTokenByHash(db, hash);
    if (!row) {
      tokens.delete(hash);
      return null;
    }
    const checked: CheckedToken = {
      id: row.id,
      accountId: row.account_id,
      homeOrganizationId: row.home_organization_id,
      scopes: new Set(JSON.parse(row.scopes) as string[]),
      appIds: setOf(row.app_ids),
      organizationIds: setOf(row.organization_ids),
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      usable: row.revoked_at !== null ? 'revoked' : Number(row.account_status) !== 1 ? 'disabled' : 'yes',
      homeAdmin: await administersOrganization(db, row.home_organization_id, row.account_id),
      loadedAt: now,
    };
    tokens.set(hash, checked);
    // When it was last used, to the nearest check (not a write per request).
    if (checked.usable === 'yes') await noteTokenUse(db, row.id, now);
    return checked;
  }


  const strategy: AuthStrategy & { forgetToken(tokenId: string): void } = {
    name: 'token',
    hint: `Authorization: Bearer <personal access token> (with ${headerPrefix}-Appid on application calls)`,
    async authenticate({ headers, query, routeScope }): Promise<Actor | null> {
      const authorization = headerValue(headers, 'authorization')?.trim();
      if (!authorization) return null;
      const presented = authorization.replace(/^bearer\s+/i, '');
      if (!presented.startsWith(TOKEN_PREFIX)) return null;
      const now = clock();
      const token = await checkToken(tokenHash(presented), now);
      if (!token) throw new AppError(ErrorCode.TokenNotFound, 401, 'unknown personal access token');
      if (token.usable === 'revoked') throw new AppError(ErrorCode.UserTokenInvalid, 401, 'this personal access token was revoked');
      if (token.usable === 'disabled') throw new AppError(ErrorCode.UserTokenInvalid, 401, 'the person of this token is disabled');
      if (token.expiresAt !== null && token.expiresAt <= now) throw new AppError(ErrorCode.UserTokenInvalid, 401, `this personal access token expired at ${new Date(token.expiresAt).toISOString()}`);
      const base = { kind: 'token' as const, userId: token.accountId, accountId: token.accountId, credentialId: token.id, scopes: token.scopes, organizationIds: token.organizationIds };
      const level = routeScope ? SCOPES[routeScope].level : null;
      const appId = level === 'app' || level === null ? (headerValue(headers, appHeader)?.trim() ?? '') : '';
      if (appId === '') {
        if (level === 'app') throw AppError.invalidParameters(`the ${headerPrefix}-Appid header is required with a personal access token: it names the application`);
        const named = level === null ? '' : requestedOrganization(query);
        // Organization-level calls act in the organization named by `orgId`, or the person's home one;
        // user-level calls only when one is named. Either way the token and a membership must allow it.
        if (named === '' && level !== 'org') return { ...base, appId: '', organizationId: token.homeOrganizationId, grants: MEMBER_WITHOUT_ROLE, organizationAdmin: token.homeAdmin };
        const organizationId = named === '' ? token.homeOrganizationId : named;
        if (token.organizationIds && !token.organizationIds.has(organizationId)) throw new AppError(ErrorCode.UserTokenRestricted, 403, `this personal access token is not for the organization "${organizationId.slice(0, 80)}"`);
        const membership = await membershipIn(token.accountId, organizationId, now);
        if (!membership.active) throw new AppError(ErrorCode.UserTokenRestricted, 403, `the person of this token is not a member of the organization "${organizationId.slice(0, 80)}"`);
        return { ...base, appId: '', organizationId, grants: MEMBER_WITHOUT_ROLE, organizationAdmin: membership.admin };
      }
      if (token.appIds && !token.appIds.has(appId)) throw new AppError(ErrorCode.UserTokenRestricted, 403, `this personal access token is not for the application "${appId.slice(0, 80)}"`);
      const standing = await standings.of(token.accountId, appId, now);
      if (!standing) throw AppError.notFound(`application "${appId.slice(0, 80)}" (${headerPrefix}-Appid) does not exist`);
      if (token.organizationIds && !token.organizationIds.has(standing.organizationId)) throw new AppError(ErrorCode.UserTokenRestricted, 403, 'this personal access token is not for the organization of this application');
      if (!standing.member) throw new AppError(ErrorCode.UserTokenRestricted, 403, 'the person of this token is not a member of the organization of this application');
      return { ...base, appId, organizationId: standing.organizationId, grants: standing.grants, organizationAdmin: standing.organizationAdmin };
    },
    /** Drops a token's cached check (after it is revoked in this process). */
    forgetToken(tokenId: string) {
      for (const [hash, entry] of tokens) if (entry.id === tokenId) tokens.delete(hash);
    },
  };
  return strategy;
}
