/** Sends RFC 9457 problem responses with the cache policy their status calls for. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateDecision } from '../rate-limit/rate-limiter.js';
import { problemBody, PROBLEMS, type ProblemCode, type ProblemExtras } from './problems.js';

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

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  base: string,
  code: ProblemCode,
  detail: string,
  extras?: ProblemExtras,
  status: number = PROBLEMS[code].status,
): FastifyReply {
  return reply
    .code(status)
    .header('content-type', PROBLEM_TYPE)
    .header('cache-control', cacheControlFor(status))
    .send(problemBody(code, base, request.url, detail, extras, request.id, status));
}

/**
 * Paths outside the rate limit: the health checks a load balancer polls, and the
 * fingerprinted files of the HTML pages (static-assets.ts), added as they are made. Exact
 * paths, so the check stays one set lookup and an unknown asset name is counted as usual.
 */
const UNLIMITED = new Set(['/healthz', '/readyz']);

export function exemptFromRateLimit(path: string): void {
  UNLIMITED.add(path);
}

export function isUnlimited(url: string): boolean {
  const query = url.indexOf('?');
  return UNLIMITED.has(query === -1 ? url : url.slice(0, query));
}

/** Whole seconds until one more request is allowed, at least 1 (RFC 9110 Retry-After). */
export function retryAfter(decision: RateDecision): number {
  return Math.max(1, decision.resetSeconds);
}

/** The body of a 429, for the Fastify path and the fast path alike. */
export function rateLimitedBody(base: string, url: string, decision: RateDecision, windowMs: number): string {
  const detail = `Limit of ${decision.limit} requests per ${windowMs / 1000} seconds reached; retry in ${retryAfter(decision)} seconds.`;
  return problemBody('rate-limited', base, url, detail, {}, undefined, 429);
}
