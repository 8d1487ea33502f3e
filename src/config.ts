/**
 * Configuration from the environment, checked once at boot. Every variable has a safe
 * default; a bad value stops the process with a message naming the variable.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | null;
  /** Addresses and CIDRs of proxies whose X-Forwarded-For is believed; empty = none. */
  trustProxy: string[];
  publicBaseUrl: string | null;
  /** Base of screenshot URLs (a CDN serving content/media/); null: the API's own /media/. */
  publicMediaUrl: string | null;
  rateLimit: { max: number; windowMs: number; maxClients: number };
  /** The catalogue's pages: a budget of their own per client, over a minute (PAGE_RATE_LIMIT_MAX; 0 = off). */
  pageRateLimit: { max: number; windowMs: number; maxClients: number };
  /**
   * Who publishes the directory, for its credit: the URL is PUBLISHER_URL, else PUBLIC_BASE_URL (the
   * site itself), else null: the credit is then the name alone, never a placeholder address.
   */
  publisher: { name: string; url: string | null };
  /**
   * Browser origins allowed to call /mcp (exact `scheme://host[:port]`, lower case), or null
   * for any: the server is public, keyless and read-only (docs/api-decisions.md).
   */
  mcpAllowedOrigins: string[] | null;
  logLevel: string;
  logRequests: boolean;
  /** Where the bundled content lives, imported at start when the database is empty. */
  contentDir: string;
  /** How often the server checks the store for a new revision, in ms. */
  revisionCheckMs: number;
  /** Longest random delay before loading a revision announced to every instance at once, in ms. */
  reloadJitterMs: number;
  /** Time allowed for in-flight requests at shutdown. */
  shutdownGraceMs: number;
  /** Longest a PostgreSQL query or connection attempt may take, in ms (a silent peer counts as down). */
  databaseTimeoutMs: number;
  /** Redis: per-command timeout, and how long Redis is skipped after a failure before a probe, in ms. */
  redis: { commandTimeoutMs: number; retryAfterMs: number };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root, from `src/` (tsx) or `dist/src/` (compiled). */
export const PROJECT_ROOT = path.basename(path.resolve(here, '..')) === 'dist' ? path.resolve(here, '../..') : path.resolve(here, '..');

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function url(env: Env, name: string, fallback: string | null, protocols: string[]): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${raw}")`);
  return raw;
}

/**
 * TRUST_PROXY names proxies by address or CIDR. `true` or a hop count would let any client
 * mint a new rate-limit bucket per request with a forged X-Forwarded-For, so they are refused.
 */
export function parseTrustProxy(raw: string | undefined): string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return [];
  if (value === 'true' || /^\d+$/.test(value)) {
    throw new ConfigError('TRUST_PROXY', `"${value}" would trust any client's X-Forwarded-For; name the proxies by address or CIDR (e.g. "10.0.0.0/8,127.0.0.1")`);
  }
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of entries) {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) continue;
    const range = parseRange(entry);
    if (range === null) throw new ConfigError('TRUST_PROXY', `"${entry}" is not an IP address, a CIDR or one of loopback, linklocal, uniquelocal`);
    ranges.push(range);
  }
  const publicV4 = ranges.reduce((sum, [address, bits]) => sum + publicSize(address, bits, 'ipv4'), 0n);
  const publicV6 = ranges.reduce((sum, [address, bits]) => sum + publicSize(address, bits, 'ipv6'), 0n);
  if (publicV4 > MAX_TRUSTED_PUBLIC_V4 || publicV6 > MAX_TRUSTED_PUBLIC_V6) {
    throw new ConfigError(
      'TRUST_PROXY',
      `"${value}" trusts ${publicV4 > MAX_TRUSTED_PUBLIC_V4 ? `${publicV4} public IPv4 addresses` : 'public IPv6 space'} wholesale: any client there could forge X-Forwarded-For ` +
        `and mint a fresh rate-limit budget per request. Name the proxies (a load balancer's subnet, a CDN's published ranges), at most the size of a /8 of public IPv4 or a /20 of IPv6`,
    );
  }
  return entries;
}

/**
 * The most public address space TRUST_PROXY may name: a /8 of IPv4 (16.7 million addresses:
 * a CDN's published ranges total a few million) and a /20 of IPv6. Private, loopback and
 * link-local ranges do not count: trusting a whole private network is a deployment's choice.
 */
const MAX_TRUSTED_PUBLIC_V4 = 1n << 24n;
const MAX_TRUSTED_PUBLIC_V6 = 1n << 108n;
const NON_PUBLIC_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '127.0.0.0/8', '169.254.0.0/16', '100.64.0.0/10'].map((c) => ipaddr.IPv4.parseCIDR(c));
const NON_PUBLIC_V6 = ['fc00::/7', 'fe80::/10', '::1/128'].map((c) => ipaddr.IPv6.parseCIDR(c));

/** An address (a /32 or /128) or a CIDR; IPv4-mapped IPv6 ranges as the IPv4 range they hold. */
function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  let bits: number;
  try {
    if (entry.includes('/')) [address, bits] = ipaddr.parseCIDR(entry);
    else if (ipaddr.isValid(entry)) [address, bits] = [ipaddr.parse(entry), entry.includes(':') ? 128 : 32];
    else return null;
  } catch {
    return null;
  }
  if (address.kind() === 'ipv6' && bits >= 96 && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}

/** How many addresses of the range are public (0 when it lies within a non-public block). */
function publicSize(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number, kind: 'ipv4' | 'ipv6'): bigint {
  if (address.kind() !== kind) return 0n;
  const width = kind === 'ipv4' ? 32 : 128;
  const inside = (blocks: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>) =>
    blocks.some(([block, blockBits]) => bits >= blockBits && address.match(block as never, blockBits));
  if (inside(kind === 'ipv4' ? NON_PUBLIC_V4 : NON_PUBLIC_V6)) return 0n;
  return 1n << BigInt(width - bits);
}

/**
 * MCP_ALLOWED_ORIGINS: `*` (the default) or origins separated by commas, each
 * `http(s)://host[:port]` with nothing after it, as browsers send them in `Origin`.
 */
export function parseAllowedOrigins(raw: string | undefined): string[] | null {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '*') return null;
  const origins: string[] = [];
  for (const entry of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(entry);
    } catch {
      // reported below
    }
    if (parsed === null || entry.includes('*') || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== entry.toLowerCase().replace(/\/$/, '') || parsed.username !== '' || parsed.password !== '') {
      throw new ConfigError('MCP_ALLOWED_ORIGINS', `"${entry}" is not an origin; give * or origins such as https://agent.example.com,https://app.example.org (scheme, host and port only)`);
    }
    origins.push(parsed.origin);
  }
  if (origins.length === 0) throw new ConfigError('MCP_ALLOWED_ORIGINS', 'names no origin; give * (any) or a comma-separated list of origins');
  return origins;
}

/** PUBLIC_MEDIA_URL: an http(s) base without query or fragment, kept without its trailing slash. */
function publicMediaUrl(env: Env): string | null {
  const raw = url(env, 'PUBLIC_MEDIA_URL', null, ['http:', 'https:']);
  if (raw === null) return null;
  const parsed = new URL(raw);
  if (parsed.search !== '' || parsed.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw new ConfigError('PUBLIC_MEDIA_URL', `must be a base URL without query or fragment; file names are appended to it (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST?.trim() || '0.0.0.0';
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', null, ['http:', 'https:']);
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`);
  }
  const rateLimitOff = env.RATE_LIMIT_MAX?.trim() === '0';
  const maxClients = integer(env, 'RATE_LIMIT_MAX_CLIENTS', 1_000_000, 1000, 100_000_000);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host,
    databaseUrl: env.DATABASE_URL?.trim() || path.join(PROJECT_ROOT, 'data', 'directory.sqlite'),
    redisUrl: url(env, 'REDIS_URL', null, ['redis:', 'rediss:']),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    publicBaseUrl: publicBaseUrl?.replace(/\/+$/, '') ?? null,
    publicMediaUrl: publicMediaUrl(env),
    rateLimit: {
      max: rateLimitOff ? 0 : integer(env, 'RATE_LIMIT_MAX', 60, 0, 1_000_000),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400) * 1000,
      maxClients,
    },
    // A school behind one address: a class of 30 typing in the live search asks for a few
    // hundred pages a minute, several classes at once a thousand or two.
    pageRateLimit: { max: integer(env, 'PAGE_RATE_LIMIT_MAX', 3000, 0, 1_000_000), windowMs: 60_000, maxClients },
    publisher: { name: env.PUBLISHER_NAME?.trim() || "Annuaire IA & EdTech francophone", url: url(env, 'PUBLISHER_URL', null, ['http:', 'https:']) ?? (publicBaseUrl ? `${publicBaseUrl.replace(/\/+$/, '')}/` : null) },
    mcpAllowedOrigins: parseAllowedOrigins(env.MCP_ALLOWED_ORIGINS),
    logLevel,
    logRequests: ['1', 'true'].includes(env.LOG_REQUESTS?.trim() ?? ''),
    contentDir: env.CONTENT_DIR?.trim() || path.join(PROJECT_ROOT, 'content'),
    revisionCheckMs: integer(env, 'REVISION_CHECK_MS', 1000, 100, 3_600_000),
    reloadJitterMs: integer(env, 'RELOAD_JITTER_MS', 2000, 0, 600_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 5000, 100, 600_000),
    redis: {
      commandTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 250, 10, 60_000),
      retryAfterMs: integer(env, 'REDIS_RETRY_MS', 2000, 100, 600_000),
    },
  };
}
