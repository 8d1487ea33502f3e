/** Sends RFC 9457 problem responses with the cache policy their status calls for. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { retryAfter, type RateDecision } from '../rate-limit/rate-limiter.js';
import { MESSAGES, negotiateLanguage, type Lang, type Text } from '../directory/messages.js';
import { problemBody, PROBLEMS, type ProblemCode, type ProblemExtras } from '../directory/problems.js';
import { MEDIA_PREFIX } from '../directory/representations.js';

export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/**
 * 400/404/405 depend only on the URL and the data, so caches may keep them like a 200;
 * a 429 or a 5xx must never be stored (RFC 6585 §4), or a CDN would serve one client's
 * refusal to everyone.
 */
export function cacheControlFor(status: number): string {
  return status === 429 || status >= 500 ? 'no-store' : 'public, max-age=300';
}

/**
 * Headers of a cacheable answer that belong to the client who asked, not to the URL: the
 * contract puts the rate-limit headers on every answer, and the request id lets a client
 * quote its request. A shared cache replaying them to another client would tell that client
 * someone else's budget, so a CDN must drop these from what it stores (docs/security.md,
 * docs/deployment.md). Everything else in a `public` answer is the same for every client.
 */
export const PER_CLIENT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id'] as const;

/**
 * The base of problem `type` URIs: PUBLIC_BASE_URL, else `http://localhost`. Never the
 * request's Host: clients branch on `type`, so it is the same for every request.
 */
export function problemBase(publicBaseUrl: string | null): string {
  return publicBaseUrl ?? 'http://localhost';
}

/**
 * Problems are in the language Accept-Language asks for, so caches must key them on it:
 * `Vary` names it (a shared cache would otherwise hand one language to everyone) and
 * `Content-Language` says which one this is.
 */
export function problemHeaders(lang: Lang, status: number): Record<string, string> {
  return { 'content-type': PROBLEM_TYPE, 'cache-control': cacheControlFor(status), 'content-language': lang, vary: 'Accept-Language' };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  base: string,
  code: ProblemCode,
  detail: Text,
  extras?: ProblemExtras,
  status: number = PROBLEMS[code].status,
): FastifyReply {
  const lang = negotiateLanguage(request.headers['accept-language']);
  return reply
    .code(status)
    .headers(problemHeaders(lang, status))
    .send(problemBody(code, base, request.url, detail, lang, extras, request.id, status));
}

/**
 * Paths outside the API's count: health checks (the platform's), /mcp, which counts each
 * POST in a bucket of its own (mcp/mcp-route.ts), and the fingerprinted files
 * of the HTML pages (static-assets.ts), added as they are made: exact paths, so an unknown
 * asset name is counted as usual.
 */
const UNLIMITED = new Set(['/healthz', '/readyz', '/mcp', '/mcp/']);
/**
 * And the screenshots: immutable files a page shows by the dozen, which must not spend a
 * client's API budget (docs/api-decisions.md, "/media/{file}").
 */
const MEDIA_PATHS = `${MEDIA_PREFIX}/`;
/** Prefixes of other such files (the catalogue's logos, `/logos/`). */
const UNLIMITED_PREFIXES: string[] = [];

/** Exempts a path (or, with `prefix`, every path under it) from the count. */
export function exemptFromRateLimit(path: string, prefix = false): void {
  if (prefix) {
    if (!UNLIMITED_PREFIXES.includes(path)) UNLIMITED_PREFIXES.push(path);
  } else UNLIMITED.add(path);
}

export function isUnlimited(url: string): boolean {
  if (url.startsWith(MEDIA_PATHS)) return true;
  for (const prefix of UNLIMITED_PREFIXES) if (url.startsWith(prefix)) return true;
  return UNLIMITED.has(pathOf(url));
}

const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * The catalogue's pages (and the other pages people read: /developpeurs, /docs) spend a
 * budget of their own (PAGE_RATE_LIMIT_MAX), not the API's: a school behind one address
 * browsing the catalogue must not lock its programs out of the API, nor the other way round.
 */
const PAGE_PATHS = new Set<string>();
const PAGE_PREFIXES: string[] = [];

/** Counts a path (or, with `prefix`, every path under it) in the pages' budget. */
export function countAsPage(path: string, prefix = false): void {
  if (prefix) {
    if (!PAGE_PREFIXES.includes(path)) PAGE_PREFIXES.push(path);
  } else PAGE_PATHS.add(path);
}

/** Which budget a request spends: none (health, static files), the pages' or the API's. */
export type Budget = 'none' | 'pages' | 'api';

export function budgetOf(url: string): Budget {
  if (isUnlimited(url)) return 'none';
  // `/docs/` is `/docs` (the router ignores a trailing slash), and spends the same budget.
  const raw = pathOf(url);
  const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  if (PAGE_PATHS.has(path)) return 'pages';
  for (const prefix of PAGE_PREFIXES) if (path.startsWith(prefix)) return 'pages';
  return 'api';
}

/** The body of a 429, for the Fastify path and the fast path alike. */
export function rateLimitedBody(base: string, url: string, decision: RateDecision, windowMs: number, lang: Lang): string {
  return problemBody('rate-limited', base, url, MESSAGES.rateLimited(decision.limit, windowMs / 1000, retryAfter(decision)), lang, {}, undefined, 429);
}
