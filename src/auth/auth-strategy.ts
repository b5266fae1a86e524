import type { Actor } from '../shared/actor.js';

/** The request headers a strategy reads (lower-case names, as Node gives them). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * One way of proving who calls (app key + sign, personal access token, OAuth bearer, session).
 * `authenticate` returns null when the request does not use this strategy at all, an Actor when
 * it does and succeeds, and throws an AppError (10101, 10102, …) when it does and fails.
 */
export interface AuthStrategy {
  name: string;
  authenticate(headers: RequestHeaders): Promise<Actor | null>;
}
