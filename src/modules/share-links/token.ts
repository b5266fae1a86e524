import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secret of a share link: 32 random bytes (256 bits) as base64url, 43 characters. Only its
 * SHA-256 is stored, so the table never holds a working link.
 * @example newShareToken() // "q3W…" (43 characters)
 */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The hex SHA-256 a token is stored and looked up as. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a path segment can be a token at all (base64url, 43 characters): others are not looked up. */
export function looksLikeToken(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}

/**
 * The proof, kept in a cookie, that a viewer gave a link's password: an HMAC-SHA256 of the link id
 * with the server's share key (`server_secrets`, the same for every process).
 * @example const pass = new SharePasses(key); pass.issue(linkId); pass.holds(linkId, cookieValue)
 */
export class SharePasses {
  constructor(private readonly key: Buffer) {}

  issue(linkId: string): string {
    return createHmac('sha256', this.key).update(`share-pass:${linkId}`).digest('base64url');
  }

  holds(linkId: string, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.issue(linkId));
    const given = Buffer.from(presented);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
