import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * The key a connection is counted under per client: its socket's remote address, an IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) as its IPv4 address, and an IPv6 address as its /64 network (one host commonly holds a whole /64,
 * so per-address counting would not bound it). `undefined` for a socket without an address (already closed).
 */
export function clientAddressKey(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address (`::` filled with zeros, a trailing IPv4 part as two groups). */
function expandIPv6(address: string): string[] {
  let text = address.split('%')[0] ?? address; // zone id
  const ipv4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (ipv4?.[1] && isIPv4(ipv4[1])) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4[1].split('.').map(Number);
    text = `${text.slice(0, -ipv4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group || '0', 16).toString(16));
}

/**
 * The proxies listed in `server.trust_proxy` (addresses or CIDR ranges, IPv4 or IPv6): whether a socket's address is
 * one of them. Throws a TypeError naming an entry that is neither.
 */
export function trustedProxies(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    if (!family) throw new TypeError(`server.trust_proxy: '${entry}' is not an IP address or CIDR range`);
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    if (!address || entries.length === 0) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  };
}
