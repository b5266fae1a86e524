import type { Executor } from '../db/connection.js';
import { findTokenByHash, noteTokenUse } from '../modules/access-tokens/index.js';
import { TOKEN_PREFIX, tokenHash } from '../modules/access-tokens/index.js';
import { administersOrganization } from '../modules/people/index.js';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { changeEpoch, noteChange } from '../shared/change-notices.js';
import { headerValue, type AuthStrategy } from './auth-strategy.js';
import { personActorResolver } from './person-actor.js';

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
  /** `changeEpoch()` when it was read: a revocation here or in another process of the server reads it again. */
  epoch: number;
}

const setOf = (json: string | null) => (json === null ? null : new Set(JSON.parse(json) as string[]));

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
 * active member of: 10106. `{prefix}-Appid` is read only on application-level calls (and the admin
 * API). Where the token acts is `person-actor.ts`'s, shared with signed-in sessions.
 */
export function createTokenStrategy(db: Executor, headerPrefix: string, clock: () => number) {
  const tokens = new Map<string, CheckedToken>();
  const resolve = personActorResolver(db, headerPrefix);

  async function checkToken(hash: string, now: number): Promise<CheckedToken | null> {
    const hit = tokens.get(hash);
    if (hit && now - hit.loadedAt < TOKEN_CACHE_MS && hit.epoch === changeEpoch()) return hit;
    const epoch = changeEpoch();
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
      epoch,
    };
    tokens.set(hash, checked);
    // When it was last used, to the nearest check (not a write per request).
    if (checked.usable === 'yes') await noteTokenUse(db, row.id, now);
    return checked;
  }

  const strategy: AuthStrategy & { forgetToken(tokenId: string): void } = {
    name: 'token',
    hint: `Authorization: Bearer <personal access token> (with ${headerPrefix}-Appid on application calls)`,
    async authenticate(request): Promise<Actor | null> {
      const authorization = headerValue(request.headers, 'authorization')?.trim();
      if (!authorization) return null;
      const presented = authorization.replace(/^bearer\s+/i, '');
      if (!presented.startsWith(TOKEN_PREFIX)) return null;
      const now = clock();
      const token = await checkToken(tokenHash(presented), now);
      if (!token) throw new AppError(ErrorCode.TokenNotFound, 401, 'unknown personal access token');
      if (token.usable === 'revoked') throw new AppError(ErrorCode.UserTokenInvalid, 401, 'this personal access token was revoked');
      if (token.usable === 'disabled') throw new AppError(ErrorCode.UserTokenInvalid, 401, 'the person of this token is disabled');
      if (token.expiresAt !== null && token.expiresAt <= now) throw new AppError(ErrorCode.UserTokenInvalid, 401, `this personal access token expired at ${new Date(token.expiresAt).toISOString()}`);
      const { id: credentialId, accountId, homeOrganizationId, homeAdmin, scopes, appIds, organizationIds } = token;
      return resolve({ kind: 'token', noun: 'personal access token', credentialId, accountId, homeOrganizationId, homeAdmin, scopes, appIds, organizationIds }, request, now);
    },
    /** Drops a token's cached check (after it is revoked), here and, through a change notice, in the server's other processes. */
    forgetToken(tokenId: string) {
      for (const [hash, entry] of tokens) if (entry.id === tokenId) tokens.delete(hash);
      noteChange();
    },
  };
  return strategy;
}
