import type { Actor } from '../shared/actor.js';
import { administratorGrants, FULL_WORKSHEET, NO_WORKSHEET, type Grants, type WorksheetGrant } from './grants.js';

/**
 * An app key's actor: an administrator of its one application (reading only, for a read-only
 * key), writing as the pseudo-user `user-api`.
 * @example appKeyActor({ keyId, appId, organizationId, readOnly: false })
 */
export function appKeyActor(key: { keyId: string; appId: string; organizationId: string; readOnly: boolean; worksheets?: readonly KeyWorksheetRights[] | null }): Actor {
  const grants = key.worksheets ? customKeyGrants(key.worksheets, key.readOnly) : administratorGrants(key.readOnly);
  return { kind: 'appKey', appId: key.appId, organizationId: key.organizationId, userId: null, accountId: 'user-api', credentialId: key.keyId, scopes: null, grants, organizationAdmin: false };
}

/** A custom key's rights in one worksheet (the public type 10: canRead, canAdd, canEdit, canRemove). */
export interface KeyWorksheetRights {
  id: string;
  read: boolean;
  add: boolean;
  edit: boolean;
  delete: boolean;
}

/**
 * A custom key reaches only its worksheets, each record of them as its rights say, every field; it
 * does not administer the application (no structure changes).
 */
function customKeyGrants(worksheets: readonly KeyWorksheetRights[], readOnly: boolean): Grants {
  const reach = (allowed: boolean): 'all' | 'none' => (allowed ? 'all' : 'none');
  const granted = worksheets.map((w): [string, WorksheetGrant] => [w.id, { ...FULL_WORKSHEET, read: reach(w.read), add: w.add, edit: reach(w.edit), delete: reach(w.delete) }]);
  return { administrator: false, readOnly, worksheets: new Map(granted), otherWorksheets: NO_WORKSHEET, subordinateAccounts: [] };
}

/**
 * The server acting on its own in an application (background jobs, a share link's page): an
 * administrator, reading only unless `writes`, attributed to `accountId` (a pseudo-user).
 */
export function systemActor(work: { job: string; appId: string; organizationId: string; accountId: string; writes: boolean }): Actor {
  return { kind: 'system', appId: work.appId, organizationId: work.organizationId, userId: null, accountId: work.accountId, credentialId: `system:${work.job}`, scopes: null, grants: administratorGrants(!work.writes), organizationAdmin: false };
}
