import { describe, expect, it } from 'vitest';
import { computeSign, hashSign, signMatches } from '../../src/auth/sign.js';
import { DownloadLinks } from '../../src/files/download-links.js';
import { SharePasses } from '../../src/modules/share-links/token.js';
import { secretHash, secretMatches } from '../../src/modules/oauth/secrets.js';
import { hashPassword, verifyPassword } from '../../src/modules/people/index.js';

/**
 * The helpers that compare a presented secret with a kept one (docs/api.md, "Secrets and how they
 * are compared"): each says yes to the right secret only, and none throws on a secret of another
 * length (timingSafeEqual would): they compare fixed-length digests, or check lengths first.
 */
describe('secret comparison', () => {
  it('app key Sign: the SHA-256 of the presented Sign against the stored one', () => {
    const sign = computeSign('0123456789abcdef', 's3cret');
    expect(signMatches(sign, hashSign(sign))).toBe(true);
    for (const wrong of [`${sign.slice(0, -1)}x`, '', 'short', sign.repeat(2)]) expect(signMatches(wrong, hashSign(sign))).toBe(false);
    expect(signMatches(sign, 'not hex')).toBe(false);
  });

  it('OAuth client secrets (and codes and tokens): the SHA-256 of the presented one', () => {
    expect(secretMatches('ocs_abc', secretHash('ocs_abc'))).toBe(true);
    for (const wrong of ['ocs_abd', '', 'ocs_abc '.repeat(40)]) expect(secretMatches(wrong, secretHash('ocs_abc'))).toBe(false);
    expect(secretMatches('ocs_abc', '')).toBe(false);
  });

  it('passwords: scrypt of the presented one with the stored salt', async () => {
    const stored = await hashPassword('a good password');
    expect(await verifyPassword('a good password', stored)).toBe(true);
    expect(await verifyPassword('a good passworD', stored)).toBe(false);
    expect(await verifyPassword('a good password', `${stored.slice(0, -2)}`)).toBe(false);
    expect(await verifyPassword('a good password', 'plain')).toBe(false);
  });

  it('share-link passes and download-link signatures: HMACs, length checked before comparing', () => {
    const passes = new SharePasses(Buffer.alloc(32, 7));
    const pass = passes.issue('link-1');
    expect(passes.holds('link-1', pass)).toBe(true);
    for (const wrong of [passes.issue('link-2'), `${pass}x`, '', undefined]) expect(passes.holds('link-1', wrong)).toBe(false);
    const links = new DownloadLinks(Buffer.alloc(32, 9), 'http://x', 300);
    const url = new URL(links.linkFor('file-1', 0));
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature')!;
    expect(links.verify('file-1', expires, signature, 0)).toBe(true);
    for (const wrong of [`${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`, signature.slice(2), '']) expect(links.verify('file-1', expires, wrong, 0)).toBe(false);
    expect(links.verify('file-2', expires, signature, 0)).toBe(false);
  });
});
