import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * The one rule for the server's own outbound connections (attachment URLs, workflow HTTP requests):
 * only addresses on the public internet, unless a setting allows private ones. The address is
 * checked where the connection is made, on every connection (redirects and DNS answers included),
 * so a name that resolves to a private address is refused too.
 */

/** Whether an address is on the public internet (ipaddr.js's range is `unicast`). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** A connection refused by the rule, with the address it would have gone to. */
export class RefusedAddress extends Error {
  constructor(readonly address: string) {
    super(`refused address ${address}`);
  }
}

/**
 * The address written in a URL's host, when it is one that the rule refuses (an address in the URL
 * is connected to without a lookup, so it is checked here); null otherwise.
 * @example refusedLiteral(new URL('http://127.0.0.1/'), false) // '127.0.0.1'
 */
export function refusedLiteral(url: URL, allowPrivate: boolean): string | null {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(literal) && !allowPrivate && !isPublicAddress(literal) ? literal : null;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses names resolving to a non-public address (with a
 * `RefusedAddress` error on the request), so that the connection goes exactly where the check looked.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !allowPrivate && !isPublicAddress(a.address));
      if (refused) return callback(new RefusedAddress(refused.address), []);
      if ((options as { all?: boolean }).all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}
