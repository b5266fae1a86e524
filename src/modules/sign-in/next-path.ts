/** Where a signed-in person lands when the sign-in form names nowhere (or somewhere not allowed). */
export const DEFAULT_LANDING = '/settings';

const hasControlCharacter = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const PROBE_ORIGIN = 'http://tabularium.invalid';

/**
 * The page to go to after signing in: only a path of this server (`/settings?tab=x`). Anything
 * that could leave it is refused for the default: absolute URLs, scheme-relative `//host`,
 * backslashes (`/\host`, which browsers read as `//host`), control characters and whitespace.
 * @example safeNextPath('//evil.example') === '/settings'; safeNextPath('/settings?x=1') === '/settings?x=1'
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return DEFAULT_LANDING;
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\s]/.test(next) || hasControlCharacter(next)) return DEFAULT_LANDING;
  let url: URL;
  try {
    url = new URL(next, PROBE_ORIGIN);
  } catch {
    return DEFAULT_LANDING;
  }
  if (url.origin !== PROBE_ORIGIN) return DEFAULT_LANDING;
  const path = url.pathname + url.search + url.hash;
  return path === '/sign-in' || path.startsWith('/sign-in?') ? DEFAULT_LANDING : path;
}
