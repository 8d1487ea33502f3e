/**
 * Who a client is, for rate limiting: IPv4 as is; IPv4-mapped IPv6 in any notation
 * (`::ffff:192.0.2.1`, `::ffff:c000:201`) as the IPv4 address it carries; other IPv6 by
 * its /64 prefix, since one host is handed a whole /64.
 */
import ipaddr from 'ipaddr.js';

const DOTTED = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function clientKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  if (DOTTED.test(address)) return address;
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return `other:${address.slice(0, 64)}`;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const p = v6.parts;
  return `${p[0]!.toString(16)}:${p[1]!.toString(16)}:${p[2]!.toString(16)}:${p[3]!.toString(16)}::/64`;
}
