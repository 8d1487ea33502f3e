/**
 * Who a client is, for rate limiting: one key per address, whatever its spelling. IPv4 in
 * canonical dotted form; IPv4 written otherwise (`127.1`, `0x7f.0.0.1`, `2130706433`), with
 * a port (`192.0.2.1:443`) or IPv4-mapped in IPv6 (`::ffff:192.0.2.1`, `::ffff:c000:201`,
 * `[::ffff:192.0.2.1]:80`) as that IPv4 address; other IPv6 by its /64 prefix, since one
 * host is handed a whole /64.
 *
 * The address comes from the socket, or from X-Forwarded-For when a trusted proxy sent it.
 * What is not an address there (a proxy passing a client's text through) is not a key of
 * its own, or a forged header would mint a fresh budget per request: such requests count
 * against the peer that sent them (`peer`, the socket's address).
 */
import ipaddr from 'ipaddr.js';

const CANONICAL_V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** `[v6]`, `[v6]:port`, `v4:port`: the address part. */
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
const V4_WITH_PORT = /^([^:]+):\d{1,5}$/;

export function clientKey(address: string | undefined, peer?: string): string {
  const key = address === undefined ? null : keyOf(address.trim());
  if (key !== null) return key;
  const fallback = peer === undefined || peer === address ? null : keyOf(peer);
  return fallback ?? 'unknown';
}

function keyOf(address: string): string | null {
  if (CANONICAL_V4.test(address)) return address;
  const bracketed = BRACKETED.exec(address);
  const text = bracketed !== null ? bracketed[1]! : (V4_WITH_PORT.exec(address)?.[1] ?? address);
  const zone = text.indexOf('%');
  const bare = zone === -1 ? text : text.slice(0, zone);
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return null;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const p = v6.parts;
  return `${p[0]!.toString(16)}:${p[1]!.toString(16)}:${p[2]!.toString(16)}:${p[3]!.toString(16)}::/64`;
}
