import type { Actor } from '../shared/actor.js';
import { administratorGrants, FULL_WORKSHEET, NO_WORKSHEET, type Grants, type RowRight, type ViewReach, type WorksheetGrant } from './grants.js';

/**
 * An app key's actor: an administrator of its one application (reading only, for a read-only
 * key), writing as the pseudo-user `user-api`.
 * @example appKeyActor({ keyId, appId, organizationId, readOnly: false })
 */
export function appKeyActor(key: { keyId: string; appId: string; organizationId: string; readOnly: boolean; worksheets?: readonly KeyWorksheetRights[] | null; viewFilters?: ReadonlyMap<string, unknown> }): Actor {
  const grants = key.worksheets ? customKeyGrants(key.worksheets, key.readOnly, key.viewFilters ?? new Map()) : administratorGrants(key.readOnly);
  return { kind: 'appKey', appId: key.appId, organizationId: key.organizationId, userId: null, accountId: 'user-api', credentialId: key.keyId, scopes: null, grants, organizationAdmin: false };
}

/** A custom key's rights in one worksheet (the public type 10: canRead, canAdd, canEdit, canRemove). */
export interface KeyWorksheetRights {
  id: string;
  read: boolean;
  add: boolean;
  edit: boolean;
  delete: boolean;
  /** The views the key reads through (the public per-view `canRead`); absent or empty: every record. */
  views?: readonly string[];
}

/**
 * A custom key reaches only its worksheets, each record of them as its rights say, every field, and
 * every custom page; it does not administer the application (no structure changes). A worksheet
 * with views is reached only through them: the key reads, edits and deletes the records they show.
 */
function customKeyGrants(worksheets: readonly KeyWorksheetRights[], readOnly: boolean, viewFilters: ReadonlyMap<string, unknown>): Grants {
  const granted = worksheets.map((w): [string, WorksheetGrant] => {
    const reach = (allowed: boolean): 'all' | 'none' => (allowed ? 'all' : 'none');
    const grant: WorksheetGrant = { ...FULL_WORKSHEET, read: reach(w.read), add: w.add, edit: reach(w.edit), delete: reach(w.delete) };
    const views = w.views ?? [];
    if (views.length === 0) return [w.id, grant];
    const through: ViewReach[] = [{ scope: 'all', views }];
    const throughViews: Partial<Record<RowRight, readonly ViewReach[]>> = { read: through, edit: through, delete: through };
    return [w.id, { ...grant, throughViews, viewFilters: new Map([...viewFilters].filter(([id]) => views.includes(id))) }];
  });
  return { administrator: false, readOnly, worksheets: new Map(granted), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [], pages: null, chatbots: null };
}

/**
 * The server acting on its own in an application (background jobs, a share link's page): an
 * administrator, reading only unless `writes`, attributed to `accountId` (a pseudo-user).
 */
export function systemActor(work: { job: string; appId: string; organizationId: string; accountId: string; writes: boolean }): Actor {
  return { kind: 'system', appId: work.appId, organizationId: work.organizationId, userId: null, accountId: work.accountId, credentialId: `system:${work.job}`, scopes: null, grants: administratorGrants(!work.writes), organizationAdmin: false };
}
