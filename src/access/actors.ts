import type { Actor } from '../shared/actor.js';
import { administratorGrants } from './grants.js';

/**
 * An app key's actor: an administrator of its one application (reading only, for a read-only
 * key), writing as the pseudo-user `user-api`.
 * @example appKeyActor({ keyId, appId, organizationId, readOnly: false })
 */
export function appKeyActor(key: { keyId: string; appId: string; organizationId: string; readOnly: boolean }): Actor {
  return { kind: 'appKey', appId: key.appId, organizationId: key.organizationId, userId: null, accountId: 'user-api', credentialId: key.keyId, scopes: null, grants: administratorGrants(key.readOnly) };
}

/**
 * The server acting on its own in an application (background jobs, a share link's page): an
 * administrator, reading only unless `writes`, attributed to `accountId` (a pseudo-user).
 */
export function systemActor(work: { job: string; appId: string; organizationId: string; accountId: string; writes: boolean }): Actor {
  return { kind: 'system', appId: work.appId, organizationId: work.organizationId, userId: null, accountId: work.accountId, credentialId: `system:${work.job}`, scopes: null, grants: administratorGrants(!work.writes) };
}
