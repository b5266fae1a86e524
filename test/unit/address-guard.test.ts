import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/shared/address-guard.js';

describe('outbound connections (attachments, workflow HTTP requests): which addresses are public', () => {
  it('takes public unicast addresses, IPv4 and IPv6', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888']) expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
  });

  it('refuses private, loopback, link-local, unspecified, multicast and carrier-grade NAT addresses, also when mapped into IPv6', () => {
    const refused = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '224.0.0.1', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not an address'];
    for (const address of refused) expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
  });
});
