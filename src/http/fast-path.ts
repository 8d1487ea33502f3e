/**
 * The fast path for repeated reads. A GET or HEAD whose exact raw request (host + URL) was
 * already answered from the response cache in this revision is answered here, before
 * Fastify builds its request objects: rate limit, headers and bytes are the same as on the
 * Fastify path (they come from the same functions), only the framework's per-request cost
 * is skipped. Anything else — a first request, a refusal, an error, a shutdown — goes to
 * Fastify, which then answers exactly as it always does.
 *
 * Measured in docs/performance.md; without it a cached read costs about 1.5× a bare
 * node:http server replaying the same bytes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { Config } from '../config.js';
import type { LiveDirectory } from '../live-directory.js';
import { clientKey } from '../rate-limit/client-key.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { SlidingWindowLimiter } from '../rate-limit/sliding-window-limiter.js';
import { cachedBody, cachedHeaders, negotiate, type CachedResponse } from './cached-response.js';

/** Bound on remembered raw requests per revision; past it the map starts again. */
const MAX_REMEMBERED = 20_000;

export interface FastPathDependencies {
  config: Config;
  directory: LiveDirectory;
  limiter: RateLimiter | null;
  lifecycle: { shuttingDown: boolean };
  commonHeaders: Record<string, string>;
  requestId: (req: IncomingMessage) => string;
}

/** Everything in a raw request that the response can depend on (links use host and proto). */
export function rawRequestKey(req: IncomingMessage): string {
  const h = req.headers;
  return `${h.host ?? ''} ${h['x-forwarded-host'] ?? ''} ${h['x-forwarded-proto'] ?? ''} ${req.url}`;
}

export function rememberRawRequest(directory: LiveDirectory, req: IncomingMessage, entry: CachedResponse): void {
  const map = directory.current.byRawRequest;
  if (map.size >= MAX_REMEMBERED) map.clear();
  map.set(rawRequestKey(req), entry);
}

/** Returns a handler that answers and returns true, or returns false to pass the request on. */
export function createFastPath(deps: FastPathDependencies): ((req: IncomingMessage, res: ServerResponse) => boolean) | null {
  const { directory, limiter, lifecycle, commonHeaders, requestId } = deps;
  // Only a limiter that decides synchronously can be consulted here (Redis goes through Fastify).
  if (limiter !== null && !(limiter instanceof SlidingWindowLimiter)) return null;
  const trusted = deps.config.trustProxy.length > 0 ? proxyAddr.compile(deps.config.trustProxy) : null;

  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || lifecycle.shuttingDown) return false;
    const entry = directory.current.byRawRequest.get(rawRequestKey(req));
    if (entry === undefined) return false;
    const headers: Record<string, string | number> = { ...commonHeaders, 'x-request-id': requestId(req) };
    if (limiter !== null) {
      const ip = trusted ? proxyAddr(req, trusted) : req.socket.remoteAddress;
      const decision = limiter.hit(clientKey(ip));
      // A refusal is not counted, so Fastify can ask again and answer the 429 itself.
      if (!decision.allowed) return false;
      headers['ratelimit-limit'] = decision.limit;
      headers['ratelimit-remaining'] = decision.remaining;
      headers['ratelimit-reset'] = decision.resetSeconds;
    }
    const outcome = negotiate(entry, req.headers['if-none-match'], req.headers['accept-encoding']);
    Object.assign(headers, cachedHeaders(entry, outcome));
    const body = cachedBody(entry, outcome);
    if (body === null) {
      res.writeHead(304, headers).end();
    } else {
      headers['content-length'] = body.length;
      res.writeHead(entry.status, headers);
      if (req.method === 'HEAD') res.end();
      else res.end(body);
    }
    return true;
  };
}
