import { createHash, randomBytes } from 'node:crypto';

/**
 * A personal access token: `pat_` (so that it is recognised in a header, a log or a leaked file)
 * and 192 random bits in base64url. Only its SHA-256 is stored: a token is long and random, so a
 * fast hash is safe, and it is looked up by that hash (an index probe, not a comparison of secrets).
 */
export const TOKEN_PREFIX = 'pat_';

export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What lists show of a token: its start, enough to tell tokens apart, useless to an attacker. */
export function tokenHint(token: string): string {
  return `${token.slice(0, TOKEN_PREFIX.length + 4)}…`;
}
