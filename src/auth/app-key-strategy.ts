import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../db/connection.js';
import { headerValue, type AuthStrategy } from './auth-strategy.js';
import { appKeyActor, ipAllowlist, type IpAllowlist, type KeyWorksheetRights } from '../access/index.js';
import { viewFilters } from '../modules/views/index.js';
import { signMatches } from './sign.js';
import { changeEpoch, noteChange } from '../shared/change-notices.js';

interface CachedKey {
  appId: string;
  signHash: string;
  /** The addresses the key may be used from; null: any. */
  allowlist: IpAllowlist | null;
  /** The key's actor, made once per load: its grants (and what is compiled from them) are kept with it. */
  actor: Actor;
  loadedAt: number;
  /**
   * The Sign this key was last accepted with (a key's Sign is the same on every request): a request
   * presenting it again skips the hash. A Set, not `===`: its lookup compares the string's hash
   * first, so how long it takes does not tell how much of a wrong Sign matched.
   */
  accepted: Set<string>;
  /** `changeEpoch()` when it was read: a change of keys, views or roles, here or in another process of the server, reads it again. */
  changes: number;
}

/** No address: what a stored allowlist that cannot be read any more stands for (closed, not open). */
const NO_ADDRESS: IpAllowlist = { entries: [], allows: () => false };

function allowlistOf(stored: string | null): IpAllowlist | null {
  if (stored === null) return null;
  try {
    return ipAllowlist(JSON.parse(stored) as string[]);
  } catch {
    return NO_ADDRESS;
  }
}

/** How long a looked-up key is trusted before it is read again (bounds staleness across processes). */
const CACHE_MS = 30_000;

/**
 * App key + signature: `{prefix}-Appkey` and `{prefix}-Sign`. The key acts as the administrator
 * of its application. Missing credentials or an unknown key: 10101; a wrong Sign: 10102; a key
 * restricted to addresses used from another one: 10000 (HTTP 403) naming the address.
 */
export function createAppKeyStrategy(db: Executor, headerPrefix: string) {
  const keyHeader = `${headerPrefix.toLowerCase()}-appkey`;
  const signHeader = `${headerPrefix.toLowerCase()}-sign`;
  const cache = new Map<string, CachedKey>();

  async function load(appKey: string): Promise<CachedKey | null> {
    const hit = cache.get(appKey);
    if (hit && Date.now() - hit.loadedAt < CACHE_MS && hit.changes === changeEpoch()) return hit;
    const changes = changeEpoch();
    const row = await db
      .selectFrom('app_keys')
      .innerJoin('apps', 'apps.id', 'app_keys.app_id')
      .select(['app_keys.id', 'app_keys.app_id', 'app_keys.sign_hash', 'app_keys.read_only', 'app_keys.allowed_ips', 'app_keys.worksheet_permissions', 'apps.organization_id'])
      .where('app_keys.app_key', '=', appKey)
      .executeTakeFirst();
    if (!row) {
      cache.delete(appKey);
      return null;
    }
    const worksheets = row.worksheet_permissions === null ? null : (JSON.parse(row.worksheet_permissions) as KeyWorksheetRights[]);
    const views = (worksheets ?? []).flatMap((w) => w.views ?? []);
    const readOnly = row.read_only === 1;
    const entry: CachedKey = {
      signHash: row.sign_hash,
      appId: row.app_id,
      allowlist: allowlistOf(row.allowed_ips),
      actor: appKeyActor({ keyId: row.id, appId: row.app_id, organizationId: row.organization_id, readOnly, worksheets, viewFilters: await viewFilters(db, views) }),
      loadedAt: Date.now(),
      accepted: new Set(),
      changes,
    };
    cache.set(appKey, entry);
    return entry;
  }

  const strategy: AuthStrategy & { forgetApp(appId: string): void } = {
    name: 'appKey',
    hint: `the ${headerPrefix}-Appkey and ${headerPrefix}-Sign headers`,
    async authenticate({ headers, ip }): Promise<Actor | null> {
      const appKey = headerValue(headers, keyHeader);
      const sign = headerValue(headers, signHeader);
      if (appKey === undefined && sign === undefined) return null;
      if (!appKey || !sign) {
        throw new AppError(ErrorCode.TokenNotFound, 401, `both ${headerPrefix}-Appkey and ${headerPrefix}-Sign headers are required`);
      }
      const key = await load(appKey.trim());
      if (!key) throw new AppError(ErrorCode.TokenNotFound, 401, `unknown ${headerPrefix}-Appkey`);
      const presented = sign.trim();
      if (!key.accepted.has(presented)) {
        if (!signMatches(presented, key.signHash)) throw new AppError(ErrorCode.InvalidSignature, 401, `${headerPrefix}-Sign does not match the AppKey`);
        key.accepted.add(presented);
      }
      if (key.allowlist && !key.allowlist.allows(ip)) {
        throw new AppError(ErrorCode.IpRestricted, 403, `this ${headerPrefix}-Appkey may not be used from ${ip}`);
      }
      return key.actor;
    },
    /** Drops cached keys of an app (after the app, and so its keys, are deleted). */
    forgetApp(appId: string) {
      for (const [appKey, entry] of cache) if (entry.appId === appId) cache.delete(appKey);
      noteChange();
    },
  };
  return strategy;
}
