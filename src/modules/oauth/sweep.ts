import type { Executor } from '../../db/connection.js';
import * as repository from './repository.js';

/**
 * Removes the OAuth rows nothing can use any more, keeping what reuse detection needs.
 *
 * - **Tokens go by family** (every pair issued from one consent): only once every access and every
 *   refresh token of the family has expired. A spent refresh token presented again revokes its whole
 *   family (reuse detection), and the thief may hold the family's newest, live pair: so every spent
 *   row is kept while any token of its family could still be used, and a revoked family still answers
 *   "revoked" (600101) rather than "unknown" while any of its tokens would otherwise be valid. Once
 *   all have expired, presenting any of them gets nothing either way. A family that keeps refreshing
 *   keeps one row per refresh until it stops (or is revoked) and its last refresh token expires.
 * - **Codes** live 60 s. An expired code that was never used goes; a used one stays while the tokens
 *   it gave do (its replay revokes them, RFC 6749 §4.1.2), and goes with them.
 * @example const { oauthTokens, oauthCodes } = await sweepExpired(db, Date.now())
 */
export async function sweepExpired(db: Executor, now: number): Promise<{ oauthTokens: number; oauthCodes: number }> {
  // Families first: a used code leaves with the last of its family.
  const oauthTokens = await repository.deleteExpiredFamilies(db, now);
  return { oauthTokens, oauthCodes: await repository.deleteSpentCodes(db, now) };
}
