/**
 * The fast path for repeated reads. Fastify's per-request work (request and reply objects,
 * routing, hooks, header bookkeeping) costs more than writing a cached response to the
 * socket: about 32 µs of CPU per cached read through Fastify, 16 through this path, 14 for
 * a bare node:http server sending the same bytes (docs/performance.md). So once Fastify
 * has answered a GET or HEAD from the response cache, the raw request that led there (URL,
 * plus the headers the answer depends on) is remembered with the cached response, and the
 * next identical request is answered here, straight from node:http: the same rate limit,
 * the same headers and the same bytes, computed by the same functions as on the Fastify
 * path.
 *
 * A list never asked before (GET /tools, with or without a query string, that no request
 * used in this revision: a search typed for the first time) is built here too, by the function the route
 * itself calls (`answer`), from the query string parsed as Fastify's router parses it: on
 * that path Fastify's own work (request and reply objects, hooks, header copies) was a third
 * of what the request cost beyond the search (docs/performance.md). A bad parameter, or any
 * other failure to build, goes to Fastify, which answers it as it always does.
 *
 * Everything else goes to Fastify, which answers exactly as it would without this file: a
 * request seen for the first time in this revision, a refused or failed rate-limit check
 * (the limiter does not count refusals, so Fastify asks again and writes the 429), a
 * request with a body, any other method.
 *
 * A list or a page is remembered from its second request (revision-state.ts, cachedOnRepeat):
 * the first is built for itself alone, as a search typed once is never asked again.
 *
 * What is remembered belongs to one data revision (it lives in the DirectoryState that is
 * swapped on import), so it can never outlive the bytes it points to.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.js';
import type { DirectoryState, LiveDirectory } from '../live-directory.js';
import type { RawQuery } from '../directory/query-parameters.js';
import { parse as parseQueryString } from 'fast-querystring';
import { clientKey } from '../rate-limit/client-key.js';
import { retryAfter, type RateDecision, type RateLimiter } from '../rate-limit/rate-limiter.js';
import { badHostCount, rawBaseUrl } from '../directory/public-base.js';
import { negotiateLanguage } from '../directory/messages.js';
import { budgetOf, problemBase, problemHeaders, rateLimitedBody, type Budget } from '../web/problem-reply.js';
import { cachedBody, cachedHeaderList, negotiate, type CachedResponse, type Outcome } from '../web/cached-response.js';
import { httpRevision, type RememberedResponses } from '../web/revision-state.js';


export interface FastPathDependencies {
  config: Config;
  directory: LiveDirectory;
  /** The limiter of a budget (web/problem-reply.ts, budgetOf), or null where it is unlimited. */
  limiterFor: (budget: Budget) => RateLimiter | null;
  lifecycle: { shuttingDown: boolean };
  /** Headers every response carries, as [name, value, name, value, …]. */
  commonHeaders: readonly string[];
  requestId: (req: IncomingMessage) => string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Where the fast path leaves the rate-limit decision it made for a request it hands to Fastify. */
export const RATE_DECISION = Symbol('rateDecision');
export type DecidedRequest = IncomingMessage & { [RATE_DECISION]?: RateDecision };

/**
 * What a route answers to a GET or HEAD of its path with this query string (parsed as
 * Fastify's router parses it) and base of links, in this revision; throws when the route
 * would refuse it.
 */
export type EntryBuilder = (state: DirectoryState, query: RawQuery, base: string) => CachedResponse;

export interface FastPath {
  /** Answers `req` itself, or hands it to `next` (Fastify) having written nothing. */
  handle(req: IncomingMessage, res: ServerResponse, next: Handler): void;
  /** Called by the Fastify path once it has answered `req` with the cached `entry`. */
  remember(req: IncomingMessage, remembered: RememberedResponses, entry: CachedResponse): void;
  /** Lets the fast path build the answers to `path?…` it has not seen, with the route's own function. */
  answer(path: string, build: EntryBuilder): void;
}

/**
 * The fast path for this configuration, or null where it must not run: with a line logged
 * per request (LOG_REQUESTS), every request has to go through Fastify's logger.
 */
export function createFastPath(deps: FastPathDependencies): FastPath | null {
  const { config, directory, limiterFor, lifecycle, commonHeaders, requestId } = deps;
  if (config.logRequests) return null;
  const trust = config.trustProxy.length > 0 ? proxyAddr.compile(config.trustProxy) : null;
  const fixedBase = config.publicBaseUrl !== null;
  const problems = problemBase(config.publicBaseUrl);

  /**
   * Everything in the raw request that the cached answer depends on: the URL and the base
   * of its links, computed by the same function as on the Fastify path (request-context.ts),
   * so an absent header and one spelling `undefined`, or a forged X-Forwarded-Proto, can
   * never share a remembered answer with a client that gets other links.
   */
  const keyOf = (req: IncomingMessage): string => {
    if (fixedBase) return req.url!;
    const trusted = trust !== null && trust(req.socket.remoteAddress ?? '', 0);
    return `${rawBaseUrl(req, trusted, null)} ${req.url}`;
  };

  const builders = new Map<string, EntryBuilder>();
  /**
   * The answer a route would build for a GET or HEAD it has not answered yet, or undefined
   * when the path has no builder (or is not written exactly as its route is: a percent-encoded
   * letter, a trailing slash, a fragment) or the route would refuse it.
   */
  const build = (req: IncomingMessage, state: DirectoryState): CachedResponse | undefined => {
    const url = req.url!;
    const mark = url.indexOf('?');
    const builder = builders.get(mark === -1 ? url : url.slice(0, mark));
    if (builder === undefined) return undefined;
    const text = mark === -1 ? '' : url.slice(mark + 1);
    const trusted = trust !== null && trust(req.socket.remoteAddress ?? '', 0);
    try {
      return builder(state, text.length === 0 ? {} : (parseQueryString(text) as RawQuery), rawBaseUrl(req, trusted, config.publicBaseUrl));
    } catch {
      return undefined; // Fastify asks the route again, which refuses with a problem (or logs a fault)
    }
  };

  // Every answer starts with the same headers; the slot after the request id is filled per
  // request, and the rate-limit headers follow when a budget counted the request.
  const prefix = [...commonHeaders, 'x-request-id', ''];
  const ID = prefix.length - 1;

  const write = (req: IncomingMessage, res: ServerResponse, entry: CachedResponse, decision: RateDecision | null): void => {
    const outcome = negotiate(entry, req.headers['if-none-match'], req.headers['accept-encoding']);
    const headers = decision === null ? prefix.slice() : prefix.concat('ratelimit-limit', String(decision.limit), 'ratelimit-remaining', String(decision.remaining), 'ratelimit-reset', String(decision.resetSeconds));
    headers[ID] = requestId(req);
    headers.push(...wireHeaders(entry, outcome));
    // While draining, as on the Fastify path: the client is told to reconnect elsewhere.
    if (lifecycle.shuttingDown) headers.push('connection', 'close');
    res.writeHead(outcome === 'not-modified' ? 304 : entry.status, headers);
    const body = cachedBody(entry, outcome);
    if (body === null || body.length === 0 || req.method === 'HEAD') res.end();
    else res.end(body);
  };

  /** A 429, byte for byte what the Fastify path sends (app.ts, admit), without Fastify's cost. */
  const refuse = (req: IncomingMessage, res: ServerResponse, decision: RateDecision): void => {
    const lang = negotiateLanguage(req.headers['accept-language']);
    const body = rateLimitedBody(problems, req.url!, decision, config.rateLimit.windowMs, lang);
    const headers = prefix.concat('ratelimit-limit', String(decision.limit), 'ratelimit-remaining', String(decision.remaining), 'ratelimit-reset', String(decision.resetSeconds));
    headers[ID] = requestId(req);
    headers.push('retry-after', String(retryAfter(decision)), ...Object.entries(problemHeaders(lang, 429)).flat(), 'content-length', String(Buffer.byteLength(body)));
    if (lifecycle.shuttingDown) headers.push('connection', 'close');
    res.writeHead(429, headers);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };

  /** Answers from memory, else builds and remembers the answer, else hands the request to Fastify. */
  const answerOrPass = (req: IncomingMessage, res: ServerResponse, next: Handler, seen: Seen, decision: RateDecision | null): void => {
    if (seen.entry !== undefined) return write(req, res, seen.entry, decision);
    const built = build(req, seen.state);
    if (built === undefined) {
      if (decision !== null) (req as DecidedRequest)[RATE_DECISION] = decision;
      return next(req, res);
    }
    seen.remembered.set(seen.key, built);
    write(req, res, built, decision);
  };

  /**
   * With the client's decision: answer (answerOrPass), or refuse. A page's refusal is a French
   * HTML page that Fastify renders (app.ts, admit), given the decision so it is not counted twice.
   */
  const decide = (req: IncomingMessage, res: ServerResponse, next: Handler, seen: Seen, decision: RateDecision, budget: Budget): void => {
    if (decision.allowed) return answerOrPass(req, res, next, seen, decision);
    if (budget === 'api') return refuse(req, res, decision);
    (req as DecidedRequest)[RATE_DECISION] = decision;
    next(req, res);
  };

  return {
    handle(req, res, next) {
      // A request with a body is left to Fastify, which knows how to refuse or drain it.
      // And one without exactly one Host, which Fastify counts and refuses (app.ts).
      if ((req.method !== 'GET' && req.method !== 'HEAD') ||
        req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined || badHostCount(req) !== null) return next(req, res);
      // The revision as the request arrived: what it is answered from, even if the limiter answers later.
      const state = directory.current;
      const { remembered } = httpRevision(state);
      const key = keyOf(req);
      const seen: Seen = { state, remembered, key, entry: remembered.get(key) };
      const budget = budgetOf(req.url!);
      const limiter = limiterFor(budget);
      // Outside every count (health checks, static files): Fastify answers them as always.
      if (budget === 'none') return next(req, res);
      if (limiter === null) return answerOrPass(req, res, next, seen, null);
      // Every GET and HEAD is counted here, once: a refusal is answered at once (a flood of
      // them costs what a cached read costs), and Fastify reuses the decision of the others.
      let decision: RateDecision | Promise<RateDecision>;
      try {
        const peer = req.socket.remoteAddress;
        decision = limiter.hit(clientKey(trust === null ? peer : proxyAddr(req, trust), peer));
      } catch {
        return next(req, res); // Fastify asks again, and logs the fault
      }
      if (!(decision instanceof Promise)) return decide(req, res, next, seen, decision, budget);
      // A shared limiter (Redis) answers later; a fault then goes to Fastify, which asks again.
      // The entry stays valid meanwhile: it belongs to the revision it was found in.
      decision.then(
        (d) => {
          if (!res.destroyed) decide(req, res, next, seen, d, budget);
        },
        () => {
          if (!res.destroyed) next(req, res);
        },
      );
    },
    remember(req, remembered, entry) {
      if (req.method === 'GET' || req.method === 'HEAD') remembered.set(keyOf(req), entry);
    },
    answer(path, builder) {
      builders.set(path, builder);
    },
  };
}

/** A request's revision, what it remembers, the request's key there, and its remembered answer if any. */
interface Seen {
  state: DirectoryState;
  remembered: RememberedResponses;
  key: string;
  entry: CachedResponse | undefined;
}

/**
 * The headers that depend only on the cached response and the negotiated outcome, as a
 * flat [name, value, …] list built once per (entry, outcome) and kept on the entry.
 */
export function wireHeaders(entry: CachedResponse, outcome: Outcome): readonly string[] {
  const slot = outcome ?? 'identity';
  const wire = (entry.wire ??= {});
  let list = wire[slot];
  if (list === undefined) {
    list = cachedHeaderList(entry, outcome);
    const body = cachedBody(entry, outcome);
    if (body !== null) list.push('content-length', String(body.length));
    wire[slot] = list;
  }
  return list;
}
