/**
 * The wire profile (`API_PROFILE`): `spec` answers exactly as the interface specification reads;
 * `public` answers as the public V3 service does, so that scripts written for it work unchanged:
 * flat records keyed by alias, field types by name, business errors with HTTP 200, `HAP` headers.
 * Everything the profile changes is listed in docs/api.md ("The public wire profile").
 */
export type ApiProfile = 'spec' | 'public';

export const API_PROFILES: readonly ApiProfile[] = ['spec', 'public'];

/** The header prefix a profile uses when `HEADER_PREFIX` is not set. */
export function defaultHeaderPrefix(profile: ApiProfile): string {
  return profile === 'public' ? 'HAP' : 'SVC';
}
