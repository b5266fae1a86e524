import type { Grants } from '../access/index.js';
import { changeEpoch } from '../shared/change-notices.js';
import type { Executor } from '../db/connection.js';
import { standingInApp } from '../modules/roles/index.js';

/** How long a person's standing in an application is trusted before it is read again. */
const STANDING_CACHE_MS = 5_000;

export interface AppStanding {
  organizationId: string;
  member: boolean;
  organizationAdmin: boolean;
  grants: Grants;
  loadedAt: number;
  /** `changeEpoch()` when it was read: a change of roles or their views, here or in another process of the server, makes it stale at once. */
  changes: number;
}

/**
 * A person's standing in an application (`modules/roles/standing.ts`), cached for 5 seconds and
 * dropped at once after a role change in this process. Used by the bearer strategies (tokens, OAuth).
 * @example const standing = await standings.of(accountId, appId, clock()); standing?.grants
 */
export function appStandingCache(db: Executor) {
  const standings = new Map<string, AppStanding>();
  return {
    async of(accountId: string, appId: string, now: number): Promise<AppStanding | null> {
      const key = `${accountId}\u0000${appId}`;
      const hit = standings.get(key);
      if (hit && now - hit.loadedAt < STANDING_CACHE_MS && hit.changes === changeEpoch()) return hit;
      const readSince = changeEpoch();
      const found = await standingInApp(db, accountId, appId);
      if (!found) {
        standings.delete(key);
        return null;
      }
      const standing: AppStanding = { ...found, loadedAt: now, changes: readSince };
      standings.set(key, standing);
      return standing;
    },
  };
}
