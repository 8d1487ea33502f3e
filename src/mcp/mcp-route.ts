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
import type { RateDecision, RateLimiter } from '../rate-limit/rate-limiter.js';
import { MESSAGES, negotiateLanguage } from '../http/messages.js';
import { retryAfter } from '../http/problem-reply.js';
import { baseUrlOf } from '../http/request-context.js';
import { createDirectoryServerFactory, SURFACE_HEADER, surfaceOf, type DirectoryServerOptions } from './directory-server.js';

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

/** How many JSON-RPC requests a body holds (notifications and responses are not requests); an unreadable body is one. */
export function requestCount(parsed: unknown): number {
  const isRequest = (m: unknown) => typeof m === 'object' && m !== null && 'method' in m && 'id' in m;
  if (Array.isArray(parsed)) return parsed.filter(isRequest).length;
  if (typeof parsed === 'object' && parsed !== null && 'method' in parsed && !('id' in parsed)) return 0;
  return 1;
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

  /** The rate limit, counted per JSON-RPC request; false when the answer was a 429. */
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

  void app.register(async (scope) => {
    // The SDK reads the JSON itself, so a malformed body gets JSON-RPC's parse error, not a problem.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MCP_BODY_LIMIT }, (_request, body, done) => done(null, body));
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
        if (!(await admitted(request, reply, 1))) return reply;
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
      if (!(await admitted(request, reply, requestCount(parsed)))) return reply;

      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined || DROPPED_HEADERS.has(name)) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      headers.set(SURFACE_HEADER, surfaceOf(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as { method?: unknown }).method : undefined));
      // The request URL carries the base of absolute links, which the tools put in what they return.
      const web = new Request(`${baseUrlOf(request, config.publicBaseUrl)}${MCP_PATH}`, {
        method: 'POST',
        headers,
        ...(parsed === undefined && body !== undefined ? { body: new Uint8Array(body) } : {}),
      });
      const response = await handler.fetch(web, parsed === undefined ? undefined : { parsedBody: parsed });

      reply.code(response.status).header('cache-control', 'no-store');
      for (const [name, value] of response.headers) if (!OWN_HEADERS.has(name)) reply.header(name, value);
      if (response.body === null) return reply.send();
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        // 2025-era clients get SSE even for one answer: nothing may buffer it (spec, "Streamable HTTP").
        reply.header('x-accel-buffering', 'no');
        return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
      }
      return reply.send(Buffer.from(await response.arrayBuffer()));
    });
  });
}
