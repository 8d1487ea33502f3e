/**
 * The HTTP application, built without a socket so tests drive it through `inject`.
 * server.ts owns the process (listening, signals); this file owns the routes, the
 * per-request policy (CORS, rate limit, cache headers) and the error answers.
 */
import { createServer, type IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { Config } from './config.js';
import type { LiveDirectory } from './live-directory.js';
import { budgetOf, problemBase, problemHeaders, rateLimitedBody, sendProblem, type Budget } from './web/problem-reply.js';
import { MESSAGES, negotiateLanguage } from './directory/messages.js';
import { trackConnections } from './shutdown.js';
import { ProblemError, problemBody } from './directory/problems.js';
import { API_PREFIX, attributionOf } from './directory/representations.js';
import { sendCached } from './web/cached-response.js';
import { badHostCount } from './directory/public-base.js';
import { answerExpectation, createClientErrorHandler } from './http/client-errors.js';
import { createFastPath, RATE_DECISION, type DecidedRequest } from './http/fast-path.js';
import { CC_BY, type RouteContext } from './web/route-context.js';
import { MAX_SLUG_LENGTH } from './directory/query-parameters.js';
import { categoryRoutes } from './http/routes/categories.js';
import { schoolRoutes } from './http/routes/school.js';
import { changeRoutes } from './http/routes/changes.js';
import { exportRoutes } from './http/routes/exports.js';
import { feedRoutes } from './http/routes/feeds.js';
import { mediaRoutes } from './http/routes/media.js';
import { collectionRoutes } from './http/routes/collections.js';
import { openapiRoute, tryItExamples } from './http/routes/openapi.js';
import { operationRoutes, type Lifecycle } from './http/routes/operations.js';
import { toolListEntry, toolRoutes } from './http/routes/tools.js';
import { llmsTxtRoute } from './http/routes/llms-txt.js';
import { dataLicenseText } from './content/data-license.js';
import { MCP_ALLOWED_METHODS, MCP_PATHS, MCP_REQUEST_HEADERS, mcpRoute } from './mcp/mcp-route.js';
import { assetRoutes } from './http/routes/assets.js';
import { docsRoutes } from './http/routes/docs.js';
import { homeRoutes } from './http/routes/home.js';
import { notFoundHtml, PAGE_POLICY, pageRoutes, preparePageAssets, toolsPageBuilder, rateLimitedHtml } from './pages/routes.js';
import { problemPageRoutes } from './http/routes/problem-pages.js';
import { clientKey } from './rate-limit/client-key.js';
import { retryAfter, type RateDecision, type RateLimiter } from './rate-limit/rate-limiter.js';
import { httpRevision } from './web/revision-state.js';

export const API_VERSION = '1.0.0';

export interface AppDependencies {
  config: Config;
  directory: LiveDirectory;
  limiter: RateLimiter | null;
  /** The catalogue pages' budget (PAGE_RATE_LIMIT_MAX); null = unlimited. */
  pageLimiter?: RateLimiter | null;
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
/** Paths answered to GET and HEAD (the API, the pages, the operations endpoints): other methods get a 405 there. */
const KNOWN_PATH = new RegExp(
  `^(?:${API_PREFIX}/(?:tools(?:/[^/]+)?|collections(?:/[^/]+)?|categories|openapi\\.json|changes|feed\\.(?:json|atom)|export/tools\\.(?:ndjson|csv)|datapackage\\.json)/?` +
    '|/|/docs/?|/llms\\.txt|/healthz|/readyz|/media/[^/]+|/assets/[^/]+)$',
);
const ALLOWED = 'GET, HEAD, OPTIONS';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

let requestCounter = 0;
const NO_REQUEST = { headers: {} };
const requestPrefix = Math.random().toString(36).slice(2, 8);

/** An incoming X-Request-Id is kept when short and plain, so proxies can correlate logs. */
function requestId(req: Pick<IncomingMessage, 'headers'>): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `${requestPrefix}-${(++requestCounter).toString(36)}`;
}

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, directory, limiter } = deps;
  const pageLimiter = deps.pageLimiter ?? null;
  const limiterFor = (budget: Budget) => (budget === 'api' ? limiter : budget === 'pages' ? pageLimiter : null);
  const lifecycle = deps.lifecycle ?? { shuttingDown: false };
  const fastPath = createFastPath({ config, directory, limiterFor, lifecycle, commonHeaders: COMMON_HEADER_LIST, requestId });

  /** The base of problem `type` URIs: the same for every request (problem-reply.ts). */
  const problems = problemBase(config.publicBaseUrl);
  const clientErrors = { commonHeaders: COMMON_HEADER_LIST, base: problems, newRequestId: () => requestId(NO_REQUEST) };

  /**
   * What every request goes through before its route, or before a router refusal: CORS and
   * request id, `Connection: close` while draining, and the rate limit, whose refusal is
   * answered here. `next` runs when the request may go on.
   */
  function admit(request: FastifyRequest, reply: FastifyReply, next: () => void): void {
    reply.headers(COMMON_HEADERS);
    reply.header('x-request-id', request.id);
    if (lifecycle.shuttingDown) reply.header('connection', 'close');
    if (request.method === 'OPTIONS') return next();
    const budget = budgetOf(request.url);
    const counter = limiterFor(budget);
    if (counter === null) return next();
    const apply = (decision: RateDecision) => {
      reply.header('ratelimit-limit', decision.limit);
      reply.header('ratelimit-remaining', decision.remaining);
      reply.header('ratelimit-reset', decision.resetSeconds);
      if (decision.allowed) return next();
      reply.code(429).header('retry-after', retryAfter(decision));
      if (budget === 'pages') {
        // A person reading the catalogue: a French page, never stored (RFC 6585 §4).
        rateLimitedHtml(request, ctx, decision.limit, retryAfter(decision)).then(
          (html) => reply.headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': PAGE_POLICY }).send(html),
          (err: unknown) => reply.send(err),
        );
        return;
      }
      const lang = negotiateLanguage(request.headers['accept-language']);
      reply.headers(problemHeaders(lang, 429)).send(rateLimitedBody(problems, request.url, decision, config.rateLimit.windowMs, lang));
    };
    // Counted already by the fast path, which handed the request on.
    const decided = (request.raw as DecidedRequest)[RATE_DECISION];
    if (decided !== undefined) return apply(decided);
    let decision: RateDecision | Promise<RateDecision>;
    try {
      decision = counter.hit(clientKey(request.ip, request.raw.socket.remoteAddress));
    } catch (err) {
      // A limiter fault must not take the API down: serve, and say so in the log.
      request.log.error({ err }, 'rate limiter failed; request let through');
      return next();
    }
    if (decision instanceof Promise) {
      decision.then(apply, (err: unknown) => {
        request.log.error({ err }, 'rate limiter failed; request let through');
        next();
      });
    } else apply(decision);
  }

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
    // Connections are closed by drainAndClose (shutdown.ts) once flushed, never destroyed here.
    forceCloseConnections: false,
    // Router-level refusals (a malformed percent-encoding, an over-long slug) get the same
    // problem body as every other error instead of Fastify's default JSON.
    frameworkErrors: (error, request, reply) => {
      // Counted, identified and limited like any request (admit), then refused.
      admit(request, reply, () => {
        const status = error.statusCode ?? 400;
        const code = status === 404 ? 'not-found' : 'bad-request';
        const detail = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? MESSAGES.segmentTooLong(MAX_SLUG_LENGTH) : MESSAGES.badUrl();
        sendProblem(request, reply, problems, code, detail, {}, status);
      });
    },
    // What Node refuses below Fastify (unparsable, too large, too slow) is a problem too.
    clientErrorHandler: createClientErrorHandler(clientErrors),
    // Repeated reads are answered before Fastify by the fast path (http/fast-path.ts).
    serverFactory: (handler) => {
      // requireHostHeader: the Host rule is applied in onRequest, as a problem (badHostCount).
      const server = createServer({ ...SERVER_TIMEOUTS, maxHeaderSize: 16 * 1024, requireHostHeader: false }, fastPath === null ? handler : (req, res) => fastPath.handle(req, res, handler));
      server.on('checkExpectation', answerExpectation(clientErrors));
      trackConnections(server);
      return server;
    },
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
        version: API_VERSION,
        description:
          'Public, read-only JSON API over a directory of AI and EdTech tools for French-speaking users, with editorial collections. ' +
          'No key needed. 60 requests per rolling minute per client address (RateLimit-* headers). Data under CC BY 4.0. ' +
          'For AI agents: an MCP server at /mcp (Streamable HTTP, stateless) and a summary at /llms.txt.',
        license: { name: 'CC BY 4.0 (data)', url: CC_BY.url },
        contact: { name: config.publisher.name, ...(config.publisher.url ? { url: config.publisher.url } : {}) },
      },
      tags: [
        { name: 'tools', description: 'The tools of the directory: search, filters (pricing, school facts), facets, one tool in full' },
        { name: 'collections', description: 'Editorial selections: the best tools for a task (top), a persona’s toolkit (stack)' },
        { name: 'categories', description: 'The categories tools are filed under, with their counts' },
        { name: 'school', description: 'The school vocabularies (levels, subjects) and the aliases the filters accept' },
        { name: 'changes', description: 'What changed and when: the change log and its feeds, for synchronisation' },
        { name: 'exports', description: 'Every published tool at once: NDJSON, CSV, and the Frictionless data package' },
        { name: 'meta', description: 'This document, and llms.txt for AI agents' },
      ],
    },
    // « Try it » sends only the examples the schemas mark TRY_IT (http/routes/openapi.ts).
    transformObject: (document) => tryItExamples('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });

  const ctx: RouteContext = {
    config,
    directory,
    license: { ...CC_BY, attribution: attributionOf(config.publisher) },
    licenseLink: `<${CC_BY.url}>; rel="license"`,
    send: (request, reply, state, entry) => {
      fastPath?.remember(request.raw, httpRevision(state).remembered, entry);
      return sendCached(request, reply, entry);
    },
  };

  /**
   * No route for this method and path: 405 where GET is answered, else 404 — the catalogue's
   * French 404 page for a person's browser (asking for HTML, outside the API), a problem
   * document for programs.
   */
  function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
    const path = request.url.split('?', 1)[0]!;
    if (request.method !== 'GET' && request.method !== 'HEAD' && KNOWN_PATH.test(path)) {
      reply.header('allow', ALLOWED);
      return sendProblem(request, reply, problems, 'method-not-allowed', MESSAGES.methodNotAllowed(request.method));
    }
    if (!path.startsWith(`${API_PREFIX}/`) && /\btext\/html\b/.test(request.headers.accept ?? '')) {
      return notFoundHtml(request, ctx).then((html) =>
        reply.code(404).header('content-type', 'text/html; charset=utf-8').header('content-security-policy', PAGE_POLICY).header('cache-control', 'public, max-age=300').header('vary', 'Accept').send(html),
      );
    }
    if (path.startsWith(`${API_PREFIX}/`)) return sendProblem(request, reply, problems, 'not-found', MESSAGES.nothingAt(path.slice(0, 200), API_PREFIX));
    // Outside the API the answer was chosen by Accept (a browser gets the page above): say so,
    // or a shared cache would hand this JSON to browsers.
    const lang = negotiateLanguage(request.headers['accept-language']);
    return reply
      .code(404)
      .headers({ ...problemHeaders(lang, 404), vary: 'Accept, Accept-Language' })
      .send(problemBody('not-found', problems, request.url, MESSAGES.nothingAt(path.slice(0, 200), API_PREFIX), lang, {}, request.id, 404));
  }

  app.addHook('onRequest', (request, reply, done) =>
    admit(request, reply, () => {
      // RFC 9112 §3.2: exactly one Host in HTTP/1.1, never two. Node's own check (turned off
      // in the server options) answered a bare 400 without CORS, and let two Host lines pass.
      const hosts = badHostCount(request.raw);
      if (hosts === null) {
        // No route takes this method here (/mcp aside, every route is GET or HEAD): refused
        // now, before a body is read, so a bad or large body cannot turn the 405 into a 400 or 413.
        if (request.is404 && request.method !== 'GET' && request.method !== 'HEAD') return notFound(request, reply);
        return done();
      }
      // It depends on the headers, not the URL: never stored, and the connection is not reused.
      const lang = negotiateLanguage(request.headers['accept-language']);
      reply
        .code(400)
        .headers({ ...problemHeaders(lang, 400), 'cache-control': 'no-store', connection: 'close' })
        .send(problemBody('bad-request', problems, request.url, MESSAGES.hostHeader(hosts), lang));
    }),
  );

  // CORS preflight: any path, any origin; no credentials are ever involved.
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    const mcp = MCP_PATHS.has(request.url.split('?', 1)[0]!);
    reply
      .code(204)
      .header('access-control-allow-methods', mcp ? MCP_ALLOWED_METHODS : ALLOWED)
      .header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? (mcp ? MCP_REQUEST_HEADERS : 'If-None-Match, Accept, Accept-Encoding'))
      .header('access-control-max-age', '86400')
      .header('cache-control', 'public, max-age=300')
      .header('vary', 'Access-Control-Request-Headers')
      .send();
  });

  toolRoutes(app, ctx);
  // A search never asked before is answered without Fastify too, by the route's own function.
  fastPath?.answer(`${API_PREFIX}/tools`, (state, query, base) => toolListEntry(ctx, state, query, base));
  collectionRoutes(app, ctx);
  categoryRoutes(app, ctx);
  schoolRoutes(app, ctx);
  changeRoutes(app, ctx);
  feedRoutes(app, ctx);
  exportRoutes(app, ctx);
  mediaRoutes(app, ctx);
  openapiRoute(app, ctx);
  operationRoutes(app, ctx, limiter, lifecycle);
  llmsTxtRoute(app, ctx);
  mcpRoute(app, { config, limiter, directory, license: ctx.license, problemBase: problems, publicMediaUrl: config.publicMediaUrl, licenseText: dataLicenseText(config.contentDir), version: API_VERSION });
  homeRoutes(app, ctx);
  pageRoutes(app, ctx);
  fastPath?.answer('/outils', toolsPageBuilder(ctx));
  problemPageRoutes(app, ctx);
  docsRoutes(app, ctx);
  assetRoutes(app, config.publicBaseUrl, preparePageAssets);

  app.setNotFoundHandler(notFound);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ProblemError) {
      if (error.status === 405) reply.header('allow', ALLOWED);
      return sendProblem(request, reply, problems, error.code, error.detail, error.extras);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's own refusals (a body on a read-only API, mostly): its message is English.
      const detail = status === 413 ? MESSAGES.bodyTooLarge() : MESSAGES.badRequest((error as Error).message.slice(0, 300));
      return sendProblem(request, reply, problems, 'bad-request', detail, {}, status);
    }
    // A bug: the log gets the detail, the client a generic body and the request id.
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendProblem(request, reply, problems, 'internal-error', MESSAGES.internal(request.id));
  });

  return app;
}
