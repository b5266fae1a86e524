import { administers } from '../../access/index.js';
import type { Actor } from '../../shared/actor.js';

/**
 * Who may delete a discussion: its author, or an administrator of the application (every app key
 * is one; a person is one through their role).
 * @example mayDeleteDiscussion(actor, discussion.created_by)
 */
export function mayDeleteDiscussion(actor: Actor, authorId: string): boolean {
  return administers(actor) || actor.accountId === authorId;
}
