import { administratorGrants, type Grants } from '../access/index.js';
import type { Executor } from '../db/connection.js';
import { appStanding, isMemberOf } from '../modules/access-tokens/index.js';

/** A member without a role reaches no worksheet until roles grant them some. */
export const MEMBER_WITHOUT_ROLE: Grants = { administrator: false, readOnly: false, worksheets: new Map(), subordinateAccounts: [] };

export interface PersonStanding {
  organizationId: string;
  member: boolean;
  grants: Grants;
}

/**
 * A person's standing in an application (for the credentials that act as a person: tokens,
 * sessions): its organization, whether they belong to it, and their grants — the application's
 * owner administers it; anyone else has what their roles grant (none until roles exist).
 * Null when the application does not exist.
 * @example const standing = await personStanding(db, accountId, appId); standing?.grants.administrator
 */
export async function personStanding(db: Executor, accountId: string, appId: string): Promise<PersonStanding | null> {
  const app = await appStanding(db, appId);
  if (!app) return null;
  const member = await isMemberOf(db, accountId, app.organization_id);
  return { organizationId: app.organization_id, member, grants: app.owner_id === accountId ? administratorGrants(false) : MEMBER_WITHOUT_ROLE };
}
