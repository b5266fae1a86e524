import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Which addresses may use a credential: IPv4 and IPv6 addresses and CIDR ranges. An IPv4-mapped
 * IPv6 address (`::ffff:10.1.2.3`, as a dual-stack socket reports an IPv4 caller) is matched as
 * the IPv4 address it carries, on both sides. Used by app keys (10000) and meant for OAuth
 * clients (600113).
 * @example ipAllowlist(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']).allows('::ffff:10.9.8.7') === true
 */
export interface IpAllowlist {
  /** The entries as given. */
  readonly entries: readonly string[];
  allows(address: string): boolean;
}

/** An address as matched: IPv4-mapped IPv6 becomes IPv4. Null when it is not an address. */
function parseAddress(text: string): Address | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, '$1');
  // IPv4 only as four decimal parts: `10.1` or `0x0a.0.0.1` are refused rather than guessed at.
  if (bare.includes(':') ? !ipaddr.IPv6.isValid(bare) : !ipaddr.IPv4.isValidFourPartDecimal(bare)) return null;
  return ipaddr.process(bare);
}

/** One entry as a range, or the reason it is not one. */
function parseRange(entry: string): [Address, number] | string {
  const text = entry.trim();
  const slash = text.indexOf('/');
  if (slash < 0) {
    const address = parseAddress(text);
    if (!address) return `"${entry}" is not an IP address or CIDR range`;
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  const prefix = text.slice(slash + 1);
  let range: [Address, number];
  try {
    if (!/^\d{1,3}$/.test(prefix) || !parseAddress(text.slice(0, slash))) throw new Error('not a range');
    range = ipaddr.parseCIDR(text);
  } catch {
    return `"${entry}" is not an IP address or CIDR range (such as 10.0.0.0/8 or 2001:db8::/32)`;
  }
  const [address, bits] = range;
  // ::ffff:10.0.0.0/104 is the IPv4 range 10.0.0.0/8.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return range;
}

/**
 * The problem with an allowlist entry, or null when it is a valid address or CIDR range.
 * @example ipRangeProblem('10.0.0.0/33') // '"10.0.0.0/33" is not an IP address or CIDR range …'
 */
export function ipRangeProblem(entry: string): string | null {
  const parsed = parseRange(entry);
  return typeof parsed === 'string' ? parsed : null;
}

/**
 * Builds an allowlist; throws an Error naming the first entry that is not an address or range
 * (check entries with `ipRangeProblem` first where the caller should see a friendly refusal).
 */
export function ipAllowlist(entries: readonly string[]): IpAllowlist {
  const ranges = entries.map((entry) => {
    const parsed = parseRange(entry);
    if (typeof parsed === 'string') throw new Error(parsed);
    return parsed;
  });
  return {
    entries,
    allows(text: string): boolean {
      const address = parseAddress(text);
      if (!address) return false;
      const kind = address.kind();
      for (const [base, bits] of ranges) {
        if (base.kind() === kind && address.match(base as never, bits)) return true;
      }
      return false;
    },
  };
}
