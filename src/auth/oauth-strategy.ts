import { ipAllowlist, MEMBER_WITHOUT_ROLE, SCOPES } from '../access/index.js';
import type { Executor } from '../db/connection.js';
import { accessTokenCheck, ACCESS_TOKEN_PREFIX, secretHash } from '../modules/oauth/index.js';
import { administersOrganization } from '../modules/people/index.js';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { changeEpoch, noteChange } from '../shared/change-notices.js';
import { appStandingCache } from './app-standing-cache.js';
import { headerValue, type AuthStrategy } from './auth-strategy.js';

/** How long a token's check is trusted before it is read again (a revocation takes effect within it). */
const CHECK_CACHE_MS = 5_000;

interface CheckedGrant {
  id: string;
  accountId: string;
  organizationId: string;
  scopes: ReadonlySet<string>;
  expiresAt: number;
  state: 'usable' | 'revoked' | 'client-disabled' | 'person-gone';
  allowedIps: string[];
  organizationAdmin: boolean;
  loadedAt: number;
  /** `changeEpoch()` when it was read: a revocation here or in another process of the server reads it again. */
  epoch: number;
}


/**
 * OAuth access tokens: `Authorization: Bearer oat_…` with `{prefix}-Appid` on application calls.
 * The grant acts as its person, narrowed to its scopes, in the organization of its client.
 * Unknown or expired: 600100 (401); revoked (or its family, after a refresh token's reuse) or its
 * person disabled: 600101 (401); its client disabled: 600300; a caller outside the client's IP
 * allowlist: 600113; an application of another organization, or a person who is not a member: 600320.
 */
export function createOAuthStrategy(db: Executor, headerPrefix: string, clock: () => number) {
  const appHeader = `${headerPrefix.toLowerCase()}-appid`;
  const grants = new Map<string, CheckedGrant>();
  const standings = appStandingCache(db);

  async function checkGrant(hash: string, now: number): Promise<CheckedGrant | null> {
    const hit = grants.get(hash);
    if (hit && now - hit.loadedAt < CHECK_CACHE_MS && hit.epoch === changeEpoch()) return hit;
    const epoch = changeEpoch();
    const row = await accessTokenCheck(db, hash);
    if (!row) {
      grants.delete(hash);
      return null;
    }
    const checked: CheckedGrant = {
      id: row.id,
      accountId: row.account_id,
      organizationId: row.organization_id,
      scopes: new Set(JSON.parse(row.scopes) as string[]),
      expiresAt: Number(row.access_expires_at),
      state: row.revoked_at !== null ? 'revoked' : Number(row.enabled) !== 1 ? 'client-disabled' : Number(row.account_status) !== 1 ? 'person-gone' : 'usable',
      allowedIps: JSON.parse(row.allowed_ips) as string[],
      organizationAdmin: await administersOrganization(db, row.organization_id, row.account_id),
      loadedAt: now,
      epoch,
    };
    grants.set(hash, checked);
    return checked;
  }


  const strategy: AuthStrategy & { forgetAll(): void } = {
    name: 'oauth',
    hint: `Authorization: Bearer <OAuth access token> (with ${headerPrefix}-Appid on application calls)`,
    async authenticate({ headers, ip, routeScope }): Promise<Actor | null> {
      const authorization = headerValue(headers, 'authorization')?.trim();
      if (!authorization) return null;
      const presented = authorization.replace(/^bearer\s+/i, '');
      if (!presented.startsWith(ACCESS_TOKEN_PREFIX)) return null;
      const now = clock();
      const grant = await checkGrant(secretHash(presented), now);
      if (!grant) throw new AppError(ErrorCode.OAuthTokenInvalid, 401, 'unknown OAuth access token');
      if (grant.state === 'revoked') throw new AppError(ErrorCode.OAuthAuthorizationExpired, 401, 'this OAuth authorization was revoked');
      if (grant.state === 'person-gone') throw new AppError(ErrorCode.OAuthAuthorizationExpired, 401, 'the person of this OAuth authorization is disabled');
      if (grant.state === 'client-disabled') throw new AppError(ErrorCode.OAuthClientDisabled, 403, 'the client of this OAuth authorization is disabled');
      if (grant.expiresAt <= now) throw new AppError(ErrorCode.OAuthTokenInvalid, 401, 'this OAuth access token expired: use the refresh token');
      if (grant.allowedIps.length > 0 && !ipAllowlist(grant.allowedIps).allows(ip)) throw new AppError(ErrorCode.OAuthClientIpRestricted, 403, `the address ${ip} may not use this client`);
      const base = { kind: 'oauth' as const, userId: grant.accountId, accountId: grant.accountId, credentialId: grant.id, scopes: grant.scopes };
      const appId = headerValue(headers, appHeader)?.trim() ?? '';
      if (appId === '') {
        if (routeScope && SCOPES[routeScope].level === 'app') throw AppError.invalidParameters(`the ${headerPrefix}-Appid header is required with an OAuth access token: it names the application`);
        return { ...base, appId: '', organizationId: grant.organizationId, grants: MEMBER_WITHOUT_ROLE, organizationAdmin: grant.organizationAdmin };
      }
      const standing = await standings.of(grant.accountId, appId, now);
      if (!standing) throw AppError.notFound(`application "${appId.slice(0, 80)}" (${headerPrefix}-Appid) does not exist`);
      if (standing.organizationId !== grant.organizationId) throw new AppError(ErrorCode.OAuthUserForbidden, 403, 'this OAuth client is not for the organization of this application');
      if (!standing.member) throw new AppError(ErrorCode.OAuthUserForbidden, 403, 'the person of this authorization is not a member of the organization of this application');
      return { ...base, appId, organizationId: standing.organizationId, grants: standing.grants, organizationAdmin: standing.organizationAdmin };
    },
    /** Drops every cached check (after a revocation or a client's change), here and, through a change notice, in the server's other processes. */
    forgetAll() {
      grants.clear();
      noteChange();
    },
  };
  return strategy;
}
