import { describe, expect, it } from 'vitest';
import { parseCookieHeader } from '../../src/auth/auth-strategy.js';

/** The Cookie header as the authentication hook reads it for the session strategy (the API scope has no cookie plugin). */
describe('parseCookieHeader', () => {
  it('splits pairs, decodes percent-encoded values, unquotes, and keeps the first of a name', () => {
    expect(parseCookieHeader('a=1; b=x%3Dy;c="quoted" ; a=second; =nameless; flag')).toEqual({ a: '1', b: 'x=y', c: 'quoted' });
  });

  it('keeps a value that does not decode as it was sent, and reads a signed session cookie whole', () => {
    expect(parseCookieHeader('bad=%E0%A4%A; tabularium_session=abc.def%2Bghi')).toEqual({ bad: '%E0%A4%A', tabularium_session: 'abc.def+ghi' });
  });
});
