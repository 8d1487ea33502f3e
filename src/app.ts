/**
 * The HTTP application, built without a socket so tests drive it through `inject`.
 * server.ts owns the process (listening, signals); this file owns the routes, the
 * per-request policy (CORS, rate limit, cache headers) and the error answers.
 */
import { createServer, type IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { Config } from './config.js';
import type { LiveDirectory } from './live-directory.js';
import { sendProblem, cacheControlFor } from './http/problem-reply.js';
import { ProblemError, problemBody } from './http/problems.js';
import { API_PREFIX, MEDIA_PREFIX } from './http/representations.js';
import { sendCached } from './http/cached-response.js';
import { createFastPath } from './http/fast-path.js';
import { baseUrlOf } from './http/request-context.js';
import { CC_BY, type RouteContext } from './http/route-context.js';
import { categoryRoutes } from './http/routes/categories.js';
import { changeRoutes } from './http/routes/changes.js';
import { exportRoutes } from './http/routes/exports.js';
import { feedRoutes } from './http/routes/feeds.js';
import { mediaRoutes } from './http/routes/media.js';
import { collectionRoutes } from './http/routes/collections.js';
import { openapiRoute } from './http/routes/openapi.js';
import { operationRoutes, type Lifecycle } from './http/routes/operations.js';
import { toolRoutes } from './http/routes/tools.js';
import { clientKey } from './rate-limit/client-key.js';
import type { RateDecision, RateLimiter } from './rate-limit/rate-limiter.js';

export interface AppDependencies {
  config: Config;
  directory: LiveDirectory;
  limiter: RateLimiter | null;
  lifecycle?: Lifecycle;
  /** Overrides for tests (e.g. a silent logger). */
  fastify?: Partial<FastifyServerOptions>;
}

/** Timeouts chosen on purpose (PITFALLS.md, "HTTP server"); see docs/security.md. */
export const SERVER_TIMEOUTS = {
  /** A client must finish sending its headers within this time (slow-header attacks). */
  headersTimeout: 5_000,
  /** ...and its whole request within this one. */
  requestTimeout: 10_000,
  /** Longer than the 60 s idle timeout of common proxies, so they close first (nodejs/node#20256). */
  keepAliveTimeout: 65_000,
  /** How often Node checks the two timeouts above (its default, 30 s, lets a slow client linger). */
  connectionsCheckingInterval: 1_000,
} as const;

const EXPOSED = 'ETag, Link, X-Total-Count, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id, Location';
const COMMON_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
  'x-content-type-options': 'nosniff',
};
const COMMON_HEADER_LIST = Object.entries(COMMON_HEADERS).flat();
const UNLIMITED = new Set(['/healthz', '/readyz']);
const KNOWN_PATH = new RegExp(
  `^${API_PREFIX}/(?:tools(?:/[^/]+)?|collections(?:/[^/]+)?|categories|openapi\\.json|changes|feed\\.(?:json|atom)|export/tools\\.(?:ndjson|csv)|datapackage\\.json)/?$`,
);
const ALLOWED = 'GET, HEAD, OPTIONS';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

let requestCounter = 0;
const requestPrefix = Math.random().toString(36).slice(2, 8);

/** An incoming X-Request-Id is kept when short and plain, so proxies can correlate logs. */
function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `${requestPrefix}-${(++requestCounter).toString(36)}`;
}

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, directory, limiter } = deps;
  const lifecycle = deps.lifecycle ?? { shuttingDown: false };
  const fastPath = createFastPath({ config, directory, limiter, lifecycle, commonHeaders: COMMON_HEADER_LIST, requestId });

  const app = Fastify({
    logger: { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    // Only proxies named by address or CIDR are believed (config refuses `true` and hop counts).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 100 },
    bodyLimit: 1024,
    // HEAD routes are registered explicitly (getAndHead in http/route-context.ts).
    exposeHeadRoutes: false,
    genReqId: requestId,
    requestIdHeader: false,
    // While draining, requests still arriving on open connections are served (with
    // `Connection: close`) rather than answered by Fastify's bare 503: /readyz already tells
    // the load balancer to stop sending traffic.
    return503OnClosing: false,
    // Router-level refusals (a malformed percent-encoding, an over-long slug) get the same
    // problem body as every other error instead of Fastify's default JSON.
    frameworkErrors: (error, request, reply) => {
      reply.headers(COMMON_HEADERS);
      const status = error.statusCode ?? 400;
      const code = status === 404 ? 'not-found' : 'bad-request';
      const detail = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path segment is too long; slugs have at most 80 characters.' : 'The URL is not valid (check its percent-encoding).';
      sendProblem(request, reply, baseUrlOf(request, config.publicBaseUrl), code, detail, {}, status);
    },
    // Repeated reads are answered before Fastify by the fast path (http/fast-path.ts).
    serverFactory: (handler) =>
      createServer({ ...SERVER_TIMEOUTS, maxHeaderSize: 16 * 1024 }, fastPath === null ? handler : (req, res) => fastPath.handle(req, res, handler)),
    ...deps.fastify,
  });

  // Query strings are checked from their text by each route (see http/tools-query.ts), so
  // that `Infinity`, repeats and near-misses get precise answers; the schemas document them.
  app.setValidatorCompiler(() => () => true);
  // Responses are serialised by serialisers compiled from the same schemas (representations.ts).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Directory API',
        version: '1.0.0',
        description:
          'Public, read-only JSON API over a directory of AI and EdTech tools for French-speaking users, with editorial collections. ' +
          'No key needed. 60 requests per rolling minute per client address (RateLimit-* headers). Data under CC BY 4.0.',
        license: { name: 'CC BY 4.0 (data)', url: CC_BY.url },
      },
      tags: [{ name: 'tools' }, { name: 'collections' }, { name: 'categories' }, { name: 'changes' }, { name: 'exports' }, { name: 'meta' }],
    },
  });

  const ctx: RouteContext = {
    config,
    directory,
    license: { ...CC_BY, attribution: `${config.publisher.name} — ${config.publisher.url}` },
    licenseLink: `<${CC_BY.url}>; rel="license"`,
    send: (request, reply, state, entry) => {
      fastPath?.remember(request.raw, state.remembered, entry);
      return sendCached(request, reply, entry);
    },
  };

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(COMMON_HEADERS);
    reply.header('x-request-id', request.id);
    if (lifecycle.shuttingDown) reply.header('connection', 'close');
    if (limiter === null || request.method === 'OPTIONS') return done();
    const path = request.url.split('?', 1)[0]!;
    // Screenshots are immutable files a page shows by the dozen: counting them would spend a
    // client's API budget on images (docs/api-decisions.md, "Screenshots").
    if (UNLIMITED.has(path) || path.startsWith(`${MEDIA_PREFIX}/`)) return done();
    const apply = (decision: RateDecision) => {
      reply.header('ratelimit-limit', decision.limit);
      reply.header('ratelimit-remaining', decision.remaining);
      reply.header('ratelimit-reset', decision.resetSeconds);
      if (decision.allowed) return done();
      reply.header('retry-after', Math.max(1, decision.resetSeconds));
      sendProblem(request, reply, baseUrlOf(request, config.publicBaseUrl), 'rate-limited',
        `Limit of ${decision.limit} requests per ${config.rateLimit.windowMs / 1000} seconds reached; retry in ${Math.max(1, decision.resetSeconds)} seconds.`);
    };
    let decision: RateDecision | Promise<RateDecision>;
    try {
      decision = limiter.hit(clientKey(request.ip, request.raw.socket.remoteAddress));
    } catch (err) {
      // A limiter fault must not take the API down: serve, and say so in the log.
      request.log.error({ err }, 'rate limiter failed; request let through');
      return done();
    }
    if (decision instanceof Promise) {
      decision.then(apply, (err: unknown) => {
        request.log.error({ err }, 'rate limiter failed; request let through');
        done();
      });
    } else apply(decision);
  });

  // CORS preflight: any path, any origin; no credentials are ever involved.
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    reply
      .code(204)
      .header('access-control-allow-methods', ALLOWED)
      .header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? 'If-None-Match, Accept, Accept-Encoding')
      .header('access-control-max-age', '86400')
      .header('cache-control', 'public, max-age=300')
      .header('vary', 'Access-Control-Request-Headers')
      .send();
  });

  toolRoutes(app, ctx);
  collectionRoutes(app, ctx);
  categoryRoutes(app, ctx);
  changeRoutes(app, ctx);
  feedRoutes(app, ctx);
  exportRoutes(app, ctx);
  mediaRoutes(app, ctx);
  openapiRoute(app, ctx);
  operationRoutes(app, ctx, limiter, lifecycle);

  app.setNotFoundHandler((request, reply) => {
    const base = baseUrlOf(request, config.publicBaseUrl);
    const path = request.url.split('?', 1)[0]!;
    if (request.method !== 'GET' && request.method !== 'HEAD' && KNOWN_PATH.test(path)) {
      reply.header('allow', ALLOWED);
      return sendProblem(request, reply, base, 'method-not-allowed', `${request.method} is not allowed here; this API is read-only (GET, HEAD, OPTIONS).`);
    }
    return sendProblem(request, reply, base, 'not-found', `Nothing is published at ${path.slice(0, 200)}. The API lives under ${API_PREFIX}/ (see ${API_PREFIX}/openapi.json).`);
  });

  app.setErrorHandler((error, request, reply) => {
    const base = baseUrlOf(request, config.publicBaseUrl);
    if (error instanceof ProblemError) {
      if (error.status === 405) reply.header('allow', ALLOWED);
      return sendProblem(request, reply, base, error.code, error.detail, error.extras);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return sendProblem(request, reply, base, 'bad-request', (error as Error).message.slice(0, 300), {}, status);
    }
    // A bug: the log gets the detail, the client a generic body and the request id.
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply
      .code(500)
      .header('content-type', 'application/problem+json; charset=utf-8')
      .header('cache-control', cacheControlFor(500))
      .send(problemBody('internal-error', base, request.url, `An unexpected error occurred. Quote request id ${request.id} when reporting it.`, {}, request.id));
  });

  return app;
}
