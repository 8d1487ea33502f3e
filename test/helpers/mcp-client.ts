/**
 * The SDK's own MCP client, connected to the app: in-process through `app.inject` (the
 * whole Fastify path, hooks included, no socket), or over a real socket to a listening app.
 * `era: 'auto'` negotiates the current protocol (2026-07-28); `'legacy'` speaks the 2025 one.
 */
import type { TestContext } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FastifyInstance } from 'fastify';

export type Era = 'auto' | 'legacy';
export const ERAS: readonly Era[] = ['auto', 'legacy'];

/** A `fetch` that sends each request through `app.inject`; `headers` are added to every request. */
export function injectFetch(app: FastifyInstance, headers: Record<string, string> = {}) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const sent: Record<string, string> = { ...headers };
    request.headers.forEach((value, name) => (sent[name] = value));
    const url = new URL(request.url);
    const res = await app.inject({
      method: request.method as 'POST',
      url: url.pathname + url.search,
      headers: sent,
      ...(request.method === 'POST' ? { payload: Buffer.from(await request.arrayBuffer()) } : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const empty = res.statusCode === 204 || res.statusCode === 202 || res.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  };
}

export interface ConnectOptions {
  era: Era;
  /** A listening server's port; default: in-process through `app.inject`. */
  port?: number;
  headers?: Record<string, string>;
}

export async function connectClient(t: TestContext, app: FastifyInstance, options: ConnectOptions): Promise<Client> {
  const url = new URL(options.port === undefined ? 'http://localhost/mcp' : `http://127.0.0.1:${options.port}/mcp`);
  const transport = new StreamableHTTPClientTransport(url, {
    ...(options.port === undefined ? { fetch: injectFetch(app, options.headers) } : { requestInit: { headers: options.headers ?? {} } }),
  });
  const client = new Client({ name: 'directory-tests', version: '1.0.0' }, { versionNegotiation: { mode: options.era } });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** The structured content of a successful call, or a failure naming the error text. */
export function structured(result: { isError?: boolean; structuredContent?: unknown; content?: unknown }): Record<string, unknown> {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}
