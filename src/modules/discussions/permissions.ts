import { actsAsAdministrator, type Actor } from '../../shared/actor.js';

/**
 * Who may delete a discussion: its author, or an administrator of the application. Every app key
 * acts as its application's administrator, so every (writing) key may; a user who is neither
 * (issue 10) is refused with 10005.
 * @example mayDeleteDiscussion(actor, discussion.created_by)
 */
export function mayDeleteDiscussion(actor: Actor, authorId: string): boolean {
  return actsAsAdministrator(actor) || actor.accountId === authorId;
}
