import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../db/connection.js';
import { headerValue, type AuthStrategy } from './auth-strategy.js';
import { appKeyActor, ipAllowlist, type IpAllowlist, type KeyWorksheetRights } from '../access/index.js';
import { signMatches } from './sign.js';

interface CachedKey {
  keyId: string;
  appId: string;
  organizationId: string;
  signHash: string;
  readOnly: boolean;
  /** The addresses the key may be used from; null: any. */
  allowlist: IpAllowlist | null;
  /** A custom key's worksheets and rights; null: every worksheet. */
  worksheets: KeyWorksheetRights[] | null;
  loadedAt: number;
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
    if (hit && Date.now() - hit.loadedAt < CACHE_MS) return hit;
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
    const entry: CachedKey = {
      keyId: row.id,
      appId: row.app_id,
      organizationId: row.organization_id,
      signHash: row.sign_hash,
      readOnly: row.read_only === 1,
      allowlist: allowlistOf(row.allowed_ips),
      worksheets: row.worksheet_permissions === null ? null : (JSON.parse(row.worksheet_permissions) as KeyWorksheetRights[]),
      loadedAt: Date.now(),
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
      if (!signMatches(sign.trim(), key.signHash)) {
        throw new AppError(ErrorCode.InvalidSignature, 401, `${headerPrefix}-Sign does not match the AppKey`);
      }
      if (key.allowlist && !key.allowlist.allows(ip)) {
        throw new AppError(ErrorCode.IpRestricted, 403, `this ${headerPrefix}-Appkey may not be used from ${ip}`);
      }
      return appKeyActor(key);
    },
    /** Drops cached keys of an app (after the app, and so its keys, are deleted). */
    forgetApp(appId: string) {
      for (const [appKey, entry] of cache) if (entry.appId === appId) cache.delete(appKey);
    },
  };
  return strategy;
}
