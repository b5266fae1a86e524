/**
 * Who is calling, as every service sees it. An app key acts as the administrator of its one
 * application; its writes are attributed to the pseudo-user `user-api` ("API"), as on the
 * public service.
 */
export interface Actor {
  kind: 'appKey';
  appId: string;
  organizationId: string;
  keyId: string;
  readOnly: boolean;
  /** The account writes are attributed to. */
  accountId: string;
}

/** Pseudo-users that are not rows of `accounts`, with the names they read as. */
export const PSEUDO_USERS: ReadonlyMap<string, string> = new Map([
  ['user-api', 'API'],
  ['user-undefined', 'Unspecified'],
  ['user-workflow', 'Workflow'],
]);

/**
 * Whether the actor administers its application. An app key always does; users (a later issue)
 * will by their role.
 */
export function actsAsAdministrator(actor: Actor): boolean {
  return actor.kind === 'appKey';
}
