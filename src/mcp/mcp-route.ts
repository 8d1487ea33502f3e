/**
 * `/mcp`: the MCP server over Streamable HTTP, stateless, on the API's own server and port.
 * The SDK's handler (built once) answers both protocol eras; this file puts the API's policy
 * around it: the Origin check the spec requires, the rate limit in a bucket of its own,
 * the body bound, and the base of absolute links.
 *
 * See docs/api-decisions.md ("MCP") for why any Origin is allowed by default and why /mcp
 * has its own rate-limit bucket.
 */
import { Readable } from 'node:stream';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { clientKey } from '../rate-limit/client-key.js';
import { retryAfter, type RateDecision, type RateLimiter } from '../rate-limit/rate-limiter.js';
import { MESSAGES, negotiateLanguage, type Lang } from '../directory/messages.js';
import { baseUrlOf } from '../directory/public-base.js';
import { createDirectoryServerFactory, PROMPT_NAMES, SURFACE_HEADER, surfaceOf, TOOL_NAMES, type DirectoryServerOptions } from './directory-server.js';
import { invalidParamsError, parameterErrors } from './request-check.js';

export const MCP_PATH = '/mcp';
export const MCP_PATHS = new Set([MCP_PATH, `${MCP_PATH}/`]);
/** A JSON-RPC request to this server is a few hundred bytes; 64 KiB leaves room and bounds the parse. */
export const MCP_BODY_LIMIT = 64 * 1024;
/** Rate-limit keys of /mcp: the same rule as the API, a bucket of its own (an agent must not lock its user out of REST). */
export const MCP_BUCKET = 'mcp:';
/** The request headers of the Streamable HTTP transport, for CORS preflights. */
export const MCP_REQUEST_HEADERS = 'Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, Authorization';
export const MCP_ALLOWED_METHODS = 'POST, OPTIONS';

/** Headers of the incoming request that the transport never needs (hop-by-hop, or recomputed). */
const DROPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade', 'te', 'trailer', 'proxy-connection']);
/** Headers of the SDK's response that Node and the API set themselves. */
const OWN_HEADERS = new Set(['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'date']);

// JSON-RPC error codes (https://www.jsonrpc.org/specification#error_object); -32000 is the
// implementation-defined code the SDK uses for HTTP-level refusals.
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

export interface McpRouteOptions extends DirectoryServerOptions {
  config: Config;
  limiter: RateLimiter | null;
}

function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

const isRequest = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m) && 'method' in m && 'id' in m;

/**
 * How many counts a POST costs: one, whatever it holds (a notification, a response, an
 * unreadable or oversized body: each is work for the server), and one per request in a
 * batch of several.
 */
export function postCost(parsed: unknown): number {
  if (!Array.isArray(parsed)) return 1;
  return Math.max(1, parsed.filter(isRequest).length);
}

const KNOWN_NAMES = { tools: TOOL_NAMES, prompts: PROMPT_NAMES };

/**
 * The requests of a body whose parameters are refused (mcp/request-check.ts), answered
 * here, and what is left for the SDK: the body itself, a batch without them, or nothing.
 */
function screenParameters(parsed: unknown, problemBase: string, lang: Lang): { answers: object[]; rest: unknown } {
  const answers: object[] = [];
  const keep = (m: unknown) => {
    if (!isRequest(m)) return true;
    const errors = parameterErrors(m, KNOWN_NAMES);
    if (errors.length === 0) return true;
    answers.push(invalidParamsError(m.id, errors, problemBase, lang));
    return false;
  };
  if (Array.isArray(parsed)) {
    const rest = parsed.filter(keep);
    return { answers, rest: rest.length === 0 ? undefined : rest };
  }
  return { answers, rest: keep(parsed) ? parsed : undefined };
}

/** The JSON-RPC messages of an SDK answer, sent as JSON or as server-sent events. */
async function messagesOf(response: Response): Promise<unknown[]> {
  if (response.body === null) return [];
  const text = await response.text();
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)));
  }
  const body: unknown = text === '' ? [] : JSON.parse(text);
  return Array.isArray(body) ? body : [body];
}

/** Counts `n` requests for `key`; the first refusal, or the last decision. */
async function hitMany(limiter: RateLimiter, key: string, n: number): Promise<RateDecision | null> {
  let decision: RateDecision | null = null;
  for (let k = 0; k < n; k++) {
    const d = limiter.hit(key);
    decision = d instanceof Promise ? await d : d;
    if (!decision.allowed) break;
  }
  return decision;
}

export function mcpRoute(app: FastifyInstance, options: McpRouteOptions): void {
  const { config, limiter } = options;
  const allowed = config.mcpAllowedOrigins === null ? null : new Set(config.mcpAllowedOrigins);
  const handler = createMcpHandler(createDirectoryServerFactory(options), {
    legacy: 'stateless',
    responseMode: 'auto',
    maxRequestBodySize: MCP_BODY_LIMIT,
    onerror: (err) => app.log.debug({ err }, 'mcp request refused'),
  });
  app.addHook('onClose', () => handler.close());

  /** Counts `count` hits for the client; false when the answer was a 429. */
  async function admitted(request: FastifyRequest, reply: FastifyReply, count: number): Promise<boolean> {
    if (limiter === null || count === 0) return true;
    let decision: RateDecision | null;
    try {
      decision = await hitMany(limiter, MCP_BUCKET + clientKey(request.ip, request.raw.socket.remoteAddress), count);
    } catch (err) {
      // As for the API: a limiter fault must not take the service down.
      request.log.error({ err }, 'rate limiter failed; request let through');
      return true;
    }
    if (decision === null) return true;
    reply.header('ratelimit-limit', decision.limit);
    reply.header('ratelimit-remaining', decision.remaining);
    reply.header('ratelimit-reset', decision.resetSeconds);
    if (decision.allowed) return true;
    const lang = negotiateLanguage(request.headers['accept-language']);
    reply.header('retry-after', retryAfter(decision)).header('content-language', lang).header('vary', 'Accept-Language');
    rpcError(reply, 429, SERVER_ERROR, MESSAGES.rateLimited(decision.limit, config.rateLimit.windowMs / 1000, retryAfter(decision))[lang]);
    return false;
  }

  /** The request handed to the SDK, on the base of absolute links, which the tools put in what they return. */
  function sdkRequest(request: FastifyRequest, parsed: unknown, body?: Buffer): Request {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || DROPPED_HEADERS.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set(SURFACE_HEADER, surfaceOf(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as { method?: unknown }).method : undefined));
    return new Request(`${baseUrlOf(request, config.publicBaseUrl)}${MCP_PATH}`, {
      method: 'POST',
      headers,
      ...(parsed === undefined && body !== undefined ? { body: new Uint8Array(body) } : {}),
    });
  }

  async function sendResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
    reply.code(response.status).header('cache-control', 'no-store');
    for (const [name, value] of response.headers) if (!OWN_HEADERS.has(name)) reply.header(name, value);
    if (response.body === null) return reply.send();
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      // 2025-era clients get SSE even for one answer: nothing may buffer it (spec, "Streamable HTTP").
      reply.header('x-accel-buffering', 'no');
      return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
    }
    return reply.send(Buffer.from(await response.arrayBuffer()));
  }

  void app.register(async (scope) => {
    // The SDK reads the JSON itself, so a malformed body gets JSON-RPC's parse error, not a problem.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MCP_BODY_LIMIT }, (_request, body, done) => done(null, body));
    // Every request to /mcp is counted once before its body is read, so neither a
    // notification nor a body refused as too large or unreadable is free.
    scope.addHook('onRequest', async (request, reply) => {
      if (!(await admitted(request, reply, 1))) return reply;
    });
    scope.setErrorHandler((error, _request, reply) => {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 413) return rpcError(reply, 413, INVALID_REQUEST, `The request body is larger than ${MCP_BODY_LIMIT / 1024} KiB.`);
      if (status !== undefined && status >= 400 && status < 500) return rpcError(reply, status, INVALID_REQUEST, (error as Error).message.slice(0, 300));
      throw error;
    });

    scope.route({
      method: ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'],
      url: MCP_PATH,
      schema: { hide: true },
      handler: async (request, reply) => {
        // Stateless: there is no stream to open and no session to end (spec, "Streamable HTTP").
        reply.header('allow', MCP_ALLOWED_METHODS);
        return rpcError(reply, 405, SERVER_ERROR, `${request.method} is not allowed: this MCP server is stateless; send JSON-RPC requests with POST.`);
      },
    });

    scope.post(MCP_PATH, { schema: { hide: true } }, async (request, reply) => {
      // The spec: servers MUST validate Origin (DNS rebinding); MCP_ALLOWED_ORIGINS decides.
      const origin = request.headers.origin;
      if (allowed !== null && origin !== undefined && !allowed.has(origin.toLowerCase())) {
        return rpcError(reply, 403, SERVER_ERROR, `Origin ${origin.slice(0, 200)} is not allowed to call this MCP server.`);
      }
      const body = request.body as Buffer | undefined;
      let parsed: unknown;
      try {
        parsed = body === undefined || body.length === 0 ? undefined : JSON.parse(body.toString('utf8'));
      } catch {
        parsed = undefined; // the SDK answers the parse error from the raw bytes
      }
      // Counted once already (onRequest); a batch of several requests costs one each.
      if (!(await admitted(request, reply, postCost(parsed) - 1))) return reply;

      // Bad parameters and names that are not this server's own are answered here (-32602).
      const screened = parsed === undefined ? { answers: [], rest: undefined } : screenParameters(parsed, options.problemBase, negotiateLanguage(request.headers['accept-language']));
      if (screened.answers.length > 0) {
        const rest = screened.rest === undefined ? null : await handler.fetch(sdkRequest(request, screened.rest), { parsedBody: screened.rest });
        if (rest !== null && rest.status !== 200 && rest.status !== 202) return sendResponse(reply, rest);
        const answers = [...screened.answers, ...(rest === null ? [] : await messagesOf(rest))];
        return reply
          .code(200)
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      }

      const response = await handler.fetch(sdkRequest(request, parsed, body), parsed === undefined ? undefined : { parsedBody: parsed });
      return sendResponse(reply, response);
    });
  });
}
