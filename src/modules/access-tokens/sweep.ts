import type { Executor } from '../../db/connection.js';
import * as repository from './repository.js';

/**
 * How long a token that stopped working stays in its person's list (status `expired` or `revoked`)
 * and answers 10105 rather than 10101 ("unknown") when presented: 30 days after it expired or was
 * revoked. It still counts towards MAX_TOKENS_PER_PERSON until then.
 */
export const ENDED_TOKEN_RETENTION_MS = 30 * 86_400_000;

/**
 * Removes personal access tokens that expired or were revoked more than ENDED_TOKEN_RETENTION_MS
 * ago. Run by the maintenance sweep (`jobs/`).
 * @example const { accessTokens } = await sweepExpired(db, Date.now())
 */
export async function sweepExpired(db: Executor, now: number): Promise<{ accessTokens: number }> {
  return { accessTokens: await repository.deleteTokensEndedBy(db, now - ENDED_TOKEN_RETENTION_MS) };
}
