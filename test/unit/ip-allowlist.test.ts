import { describe, expect, it } from 'vitest';
import { ipAllowlist, ipRangeProblem } from '../../src/access/ip-allowlist.js';

describe('ipAllowlist', () => {
  const list = ipAllowlist(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7', '::ffff:172.16.0.0/108', '::1']);

  it.each([
    ['10.255.1.2', 'inside an IPv4 range'],
    ['::ffff:10.9.8.7', 'IPv4-mapped IPv6 inside an IPv4 range'],
    ['192.0.2.7', 'a single IPv4 address'],
    ['2001:db8:ffff::1', 'inside an IPv6 range'],
    ['[2001:db8::1]', 'bracketed IPv6'],
    ['172.16.200.1', 'inside an IPv4 range written as IPv4-mapped IPv6 (/108 = /12)'],
    ['::1', 'a single IPv6 address'],
  ])('allows %s (%s)', (address) => expect(list.allows(address)).toBe(true));

  it.each([
    ['11.0.0.1', 'outside the IPv4 range'],
    ['192.0.2.8', 'next to the single address'],
    ['2001:db9::1', 'outside the IPv6 range'],
    ['172.32.0.1', 'outside the mapped range'],
    ['::ffff:11.0.0.1', 'IPv4-mapped, outside'],
    ['127.0.0.1', 'loopback IPv4 when only ::1 is listed'],
    ['not an address', 'garbage'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (address) => expect(list.allows(address)).toBe(false));

  it('matches nothing when empty', () => expect(ipAllowlist([]).allows('10.0.0.1')).toBe(false));

  it('refuses entries that are not addresses or ranges, naming them', () => {
    for (const entry of ['10.0.0.0/33', '2001:db8::/129', '10.1', '10.0.0.0/x', 'example.com', '10.0.0.0/', '0x0a.0.0.1']) {
      expect(ipRangeProblem(entry), entry).toContain(`"${entry}"`);
    }
    expect(() => ipAllowlist(['10.0.0.0/8', 'nope'])).toThrow('"nope" is not an IP address or CIDR range');
    for (const entry of ['0.0.0.0/0', '::/0', ' 10.0.0.0/8 ', '192.0.2.1']) expect(ipRangeProblem(entry), entry).toBeNull();
  });
});
