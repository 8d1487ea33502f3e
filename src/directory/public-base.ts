/**
 * The base of absolute URLs, derived from configuration and headers. One function decides
 * it for the Fastify path and for the fast path (fast-path.ts), which keys what it
 * remembers on the base this function returns: two requests that would get different
 * links can never share a remembered answer.
 */
import type { IncomingMessage } from 'node:http';

// A Host header is client-supplied: only a plain host[:port] may reach absolute links.
const SAFE_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * `protocol://host` from a host and a protocol as the request gives them (from a trusted
 * proxy, the last X-Forwarded-Host and X-Forwarded-Proto). Only `http` and `https` are
 * protocols; anything else is the socket's own. A host that is not a plain host[:port]
 * (absent, empty, too long, with a path or credentials) is `localhost`.
 */
export function baseFrom(host: string, protocol: string | undefined, encrypted: boolean): string {
  const proto = protocol === undefined ? '' : protocol.toLowerCase();
  const scheme = proto === 'http' || proto === 'https' ? proto : encrypted ? 'https' : 'http';
  const h = host.toLowerCase();
  return `${scheme}://${h.length <= 255 && SAFE_HOST.test(h) ? h : 'localhost'}`;
}

/** The base of absolute URLs: PUBLIC_BASE_URL, else the request's protocol and host. */
/** What a door knows of a request: its host and protocol as its framework derived them, and the raw request. */
export interface RequestOrigin {
  host?: string;
  protocol: string;
  raw: IncomingMessage;
}

export function baseUrlOf(request: RequestOrigin, publicBaseUrl: string | null): string {
  if (publicBaseUrl !== null) return publicBaseUrl;
  return baseFrom(request.host ?? '', request.protocol, isEncrypted(request.raw));
}

/**
 * The same base from the raw request, as Fastify derives host and protocol: X-Forwarded-Host
 * and X-Forwarded-Proto count only when non-empty and sent by a trusted proxy (`trusted`),
 * and then their last entry.
 */
export function rawBaseUrl(req: IncomingMessage, trusted: boolean, publicBaseUrl: string | null): string {
  if (publicBaseUrl !== null) return publicBaseUrl;
  const h = req.headers;
  // Node joins repeated X-Forwarded-* lines with ", ": they are strings.
  const forwardedHost = trusted ? (h['x-forwarded-host'] as string | undefined) : undefined;
  const forwardedProto = trusted ? (h['x-forwarded-proto'] as string | undefined) : undefined;
  return baseFrom(
    forwardedHost ? lastEntry(forwardedHost) : (h.host ?? ''),
    forwardedProto ? lastEntry(forwardedProto) : undefined,
    isEncrypted(req),
  );
}

/**
 * How many Host lines the request has, when that is not what RFC 9112 §3.2 allows (exactly
 * one in HTTP/1.1, at most one before); null when it is. Node keeps the first of several
 * Host lines in `headers`, so they are counted in `rawHeaders`.
 */
export function badHostCount(req: IncomingMessage): number | null {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count++;
  if (count > 1) return count;
  if (count === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return 0;
  return null;
}

function lastEntry(value: string): string {
  const comma = value.lastIndexOf(',');
  return (comma === -1 ? value : value.slice(comma + 1)).trim();
}

function isEncrypted(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean } | null)?.encrypted === true;
}
