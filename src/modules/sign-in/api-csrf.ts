import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a call through a signed-in session carries its CSRF token in, on every method that changes data. */
export const API_CSRF_HEADER = 'X-CSRF-Token';

/**
 * CSRF tokens for the API called with a session cookie: an HMAC of the session id under a key
 * derived from the session secret (the one that signs the cookies and keys the forms' tokens, under
 * another label). Another site cannot read the id (an HttpOnly cookie) nor the key, so it cannot
 * make the token; the token lives exactly as long as its session and is refused in any other.
 *
 * Not the forms' @fastify/csrf-protection tokens: those are made from a secret in a second cookie
 * that lives only as long as the browser runs, while the session cookie lasts 7 days, so a script
 * would find its token refused after a browser restart; one HMAC per session has no second cookie.
 * @example const csrf = apiCsrf(secret); csrf.matches(sessionId, csrf.tokenFor(sessionId)) === true
 */
export function apiCsrf(sessionSecret: string) {
  const key = createHmac('sha256', sessionSecret).update('api csrf tokens').digest();
  const tokenFor = (sessionId: string): string => createHmac('sha256', key).update(sessionId).digest('base64url');
  return {
    tokenFor,
    /** Whether `presented` is this session's token (constant time; any length). */
    matches(sessionId: string, presented: string): boolean {
      const expected = Buffer.from(tokenFor(sessionId));
      const given = Buffer.from(presented);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type ApiCsrf = ReturnType<typeof apiCsrf>;
