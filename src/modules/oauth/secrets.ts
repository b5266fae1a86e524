import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Access tokens start with this: the OAuth strategy recognises them, the token strategy leaves them alone. */
export const ACCESS_TOKEN_PREFIX = 'oat_';
/** Refresh tokens start with this. */
export const REFRESH_TOKEN_PREFIX = 'ort_';
/** Client secrets start with this (shown once, kept as a SHA-256). */
export const CLIENT_SECRET_PREFIX = 'ocs_';

/** A new random secret with its prefix (192 bits, base64url). */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('base64url')}`;
}

/** What is kept of a secret: its SHA-256 (hex). The secrets are random, so no slow hash is needed. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Whether a presented secret is the one kept, in time that does not depend on where they differ.
 * @example secretMatches('ocs_abc', secretHash('ocs_abc')) === true
 */
export function secretMatches(presented: string, keptHash: string): boolean {
  const given = Buffer.from(secretHash(presented), 'hex');
  const kept = Buffer.from(keptHash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}
