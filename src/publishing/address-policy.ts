/**
 * Which addresses the publishing commands may fetch. They follow URLs that anyone who edits
 * the content (or any site a tool's URL redirects to) chooses, from the publisher's machine:
 * without a check, a redirect to http://169.254.169.254/ reads a cloud's metadata service
 * and a redirect to http://127.0.0.1:5432/ probes the publisher's own services. So every
 * hop, the first URL and each redirect, is checked after DNS resolution: only public
 * unicast addresses are fetched, and only over http or https.
 *
 * Refused: IPv4 loopback, private (RFC 1918), link-local, carrier-grade NAT, multicast,
 * broadcast, unspecified (0.0.0.0/8) and reserved or documentation ranges; IPv6 outside
 * global unicast (2000::/3), which takes in loopback, unspecified, link-local, unique-local
 * and multicast, and in 2000::/3 the ranges ipaddr.js does not call unicast (NAT64, 6to4,
 * Teredo, documentation…), since they may carry a private IPv4 address; an IPv4-mapped IPv6
 * address is judged as the IPv4 address it maps.
 *
 * A local test server can be let through only explicitly, address by address (with or
 * without a port): `--allow-address 127.0.0.1:8443`.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a hop was not fetched; its `code` tells it from network failures. */
export class RefusedAddressError extends Error {
  readonly code = 'ERR_REFUSED_ADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** ipaddr.js's range names, in words. */
const RANGE_WORDS: Record<string, string> = {
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  deprecatedSiteLocal: 'site-local',
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
};

/** The name of the range `address` is in when it is not a public unicast address, else null. */
export function nonPublicRange(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'invalid';
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !(ip as ipaddr.IPv6).match(GLOBAL_UNICAST)) return 'reserved';
  return null;
}

interface Exception {
  address: string;
  port: number | null;
}

/** `127.0.0.1`, `127.0.0.1:8443`, `::1` or `[::1]:8443`, as the address's canonical text and the port. */
function parseException(text: string): Exception {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(text) ?? [text, text, undefined];
  const [, address, port] = m as [string, string, string | undefined];
  if (isIP(address) === 0) throw new Error(`--allow-address takes an IP address, with or without a port (got "${text}")`);
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw new Error(`--allow-address: ${port} is not a port`);
  return { address: canonical(address), port: port === undefined ? null : Number(port) };
}

function canonical(address: string): string {
  const ip = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  return (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip).toNormalizedString();
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

export class AddressPolicy {
  private readonly exceptions: readonly Exception[];

  /** `allowed`: the --allow-address values; none by default. */
  constructor(allowed: readonly string[] = []) {
    this.exceptions = allowed.map(parseException);
  }

  /** Why `address` (on `port`) may not be fetched, or null when it may. */
  refusal(address: string, port: number): string | null {
    const range = nonPublicRange(address);
    if (range === null) return null;
    const text = canonical(address);
    if (this.exceptions.some((e) => e.address === text && (e.port === null || e.port === port))) return null;
    return `${address} is ${RANGE_WORDS[range] ?? range}, not a public address`;
  }

  /**
   * Checks what can be told from the URL alone: an http(s) scheme, and an address when the
   * host is one. A host name is checked when it is resolved (`lookupFor`, `resolve`).
   * @throws RefusedAddressError
   */
  checkUrl(url: URL): void {
    const port = DEFAULT_PORTS[url.protocol];
    if (port === undefined) throw new RefusedAddressError(`refused: ${url.protocol} is not http or https`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) === 0) return;
    const why = this.refusal(host, url.port === '' ? port : Number(url.port));
    if (why !== null) throw new RefusedAddressError(`refused: ${why}`);
  }

  /**
   * A `lookup` for net/tls connections to `port`: resolves as dns.lookup does, and fails when
   * any address the name has is refused. The connection then goes to an address this
   * function checked, so a name cannot resolve to one address here and another later.
   */
  lookupFor(port: number): LookupFunction {
    return ((hostname: string, options: { all?: boolean; family?: number } | number, callback: (...args: unknown[]) => void) => {
      const opts = typeof options === 'number' ? { family: options } : (options ?? {});
      dnsLookup(hostname, { ...opts, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err);
        for (const { address } of addresses) {
          const why = this.refusal(address, port);
          if (why !== null) return callback(new RefusedAddressError(`refused: ${hostname} resolves to ${why}`));
        }
        if (opts.all) return callback(null, addresses);
        const [first] = addresses;
        return callback(null, first!.address, first!.family);
      });
    }) as LookupFunction;
  }

  /**
   * Checks a URL whose host name someone else will resolve (Chromium): the scheme, then
   * every address the name has now.
   * @throws RefusedAddressError, or the DNS error
   */
  async check(url: URL): Promise<void> {
    this.checkUrl(url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) return;
    const port = url.port === '' ? DEFAULT_PORTS[url.protocol]! : Number(url.port);
    await new Promise<void>((resolve, reject) => {
      this.lookupFor(port)(host, { all: true }, (err) => (err ? reject(err) : resolve()));
    });
  }
}
