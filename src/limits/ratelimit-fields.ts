/**
 * The RateLimit-Policy and RateLimit response fields of draft-ietf-httpapi-ratelimit-headers-11
 * (Structured Field Lists of Items: the policy's name as a String, with `q` quota and `w` window
 * in seconds on the policy; `r` remaining and `t` seconds until the quota renews on the state).
 * @example policyField([{ name: 'credential', quota: 600, windowSeconds: 60 }]) === '"credential";q=600;w=60'
 */

/** A limit a request was counted against, and where the count stands. */
export interface PolicyUse {
  /** `ip`, `credential`, `user` or `daily`. */
  name: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  /** Whole seconds until the window or day ends (at least 1). */
  resetSeconds: number;
  exceeded: boolean;
}

export function policyField(uses: readonly Pick<PolicyUse, 'name' | 'quota' | 'windowSeconds'>[]): string {
  return uses.map((use) => `"${use.name}";q=${use.quota};w=${use.windowSeconds}`).join(', ');
}

export function stateField(uses: readonly PolicyUse[]): string {
  // Built on every response: a loop, not map and join.
  let field = '';
  for (const use of uses) field += `${field === '' ? '' : ', '}"${use.name}";r=${use.remaining};t=${use.resetSeconds}`;
  return field;
}
