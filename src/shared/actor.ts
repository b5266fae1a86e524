import type { Grants } from '../access/grants.js';

/**
 * Who is calling, as every service sees it, whatever the credential: an app key (acting as an
 * administrator of its one application, writing as the pseudo-user `user-api`, as on the public
 * service), a person through a signed-in session, a personal access token or an OAuth grant (acting
 * as that person, narrowed by the credential's scopes), or the server's own work.
 * @example actor.kind === 'token' && actor.userId === 'a1b2…' && actor.scopes?.has('record:list')
 */
export interface Actor {
  kind: 'appKey' | 'session' | 'token' | 'oauth' | 'system';
  /** The application the call acts in; '' for calls above applications (the user's own view, lookups). */
  appId: string;
  organizationId: string;
  /** The person behind the call; null for an app key and the server's own work. */
  userId: string | null;
  /** The account writes are attributed to: the person's, or a pseudo-user (`user-api`, `user-workflow`, …). */
  accountId: string;
  /** Which credential: the app key's, token's, grant's or session's id (`system:<job>` for the server's own work). */
  credentialId: string;
  /** The scopes the credential is narrowed to (`access/scopes.ts`); null when it is not narrowed (app keys, sessions, the server). */
  scopes: ReadonlySet<string> | null;
  /** What the caller may do in the application (`access/grants.ts`). */
  grants: Grants;
  /**
   * Whether the person administers `organizationId` (an `organization_members` row with is_admin),
   * resolved by the strategy so that the admin API's check stays a pure function; false for app
   * keys and the server's own work.
   */
  organizationAdmin: boolean;
  /**
   * The organizations the credential may act in (a personal access token's `organizationIds`);
   * absent or null: any the person is a member of. Checked again where a call names another
   * organization than `organizationId` (`POST /v3/apps` with `orgId` in its body).
   */
  organizationIds?: ReadonlySet<string> | null;
}

/** Pseudo-users that are not rows of `accounts`, with the names they read as. */
export const PSEUDO_USERS: ReadonlyMap<string, string> = new Map([
  ['user-api', 'API'],
  ['user-undefined', 'Unspecified'],
  ['user-workflow', 'Workflow'],
]);
