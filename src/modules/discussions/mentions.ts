import { AppError } from '../../shared/app-error.js';

/** Most members one discussion may mention. */
export const MAX_MENTIONS = 100;

/** `@[name](accountId)` in a message: the name is what the text shows, the id whom it mentions. */
const MENTION = /@\[[^\]\n]*\]\(([^()\s]+)\)/g;

/**
 * The accounts a discussion mentions: those written in its text as `@[name](accountId)`, in the
 * order they appear, then those of `mentions` (account ids, or `{accountId}` as member values are
 * written), each once. 10002 naming `mentions[i]` for an item that is not an id, or more than
 * MAX_MENTIONS in all.
 * @example mentionedIds('hi @[Ada](a-1)', ['b-2', { accountId: 'a-1' }]) // → ['a-1', 'b-2']
 */
export function mentionedIds(message: string, mentions: unknown[] | undefined): string[] {
  const ids = new Set<string>();
  for (const match of message.matchAll(MENTION)) ids.add(match[1]);
  for (const [i, item] of (mentions ?? []).entries()) {
    const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).accountId : item;
    if (typeof id !== 'string' || id.trim() === '') throw AppError.invalidValue(`mentions[${i}]: expected an accountId, got ${JSON.stringify(item)?.slice(0, 60)}`);
    ids.add(id.trim());
  }
  if (ids.size > MAX_MENTIONS) throw AppError.invalidValue(`mentions: at most ${MAX_MENTIONS} members in one discussion, got ${ids.size}`);
  return [...ids];
}
