/**
 * Responses are built once per (data revision, base URL, normalised request) and kept as
 * bytes with their ETag; compressed variants are made on first demand and kept too. A
 * repeated read is then a lookup and a socket write.
 */
import crypto, { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

export interface CachedResponse {
  status: number;
  body: Buffer;
  /** Weak: the same validator serves the identity, gzip and br representations (RFC 9110 §8.8.1). */
  etag: string;
  headers: Record<string, string>;
  br?: Buffer | null;
  gzip?: Buffer | null;
  /** Built for its request alone, neither kept nor remembered (revision-state.ts, cachedOnRepeat). */
  once?: true;
  /** Header lists per outcome, built on first use by the fast path (fast-path.ts). */
  wire?: Partial<Record<'identity' | 'br' | 'gzip' | 'not-modified', string[]>>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
const CACHE_CONTROL = 'public, max-age=300';
/** Bodies smaller than this are sent as they are: compression would save less than it costs. */
const COMPRESS_MIN_BYTES = 1024;

export function createResponseCache(): LRUCache<string, CachedResponse> {
  return new LRUCache<string, CachedResponse>({
    max: 10_000,
    maxSize: 96 * 1024 * 1024,
    // Room for the compressed variants that may be added later.
    sizeCalculation: (r) => r.body.length * 2 + 256,
  });
}

/** The cached response for `key`, built and kept on first use. */
export function cachedOrBuild(cache: LRUCache<string, CachedResponse>, key: string, build: () => CachedResponse): CachedResponse {
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = build();
    cache.set(key, entry);
  }
  return entry;
}

/** SHA-1 of the bytes, base64url: one call where Node has it (20.12+), which skips a Hash object per response. */
const sha1: (bytes: Buffer) => string =
  typeof crypto.hash === 'function' ? (bytes) => crypto.hash('sha1', bytes, 'base64url') : (bytes) => createHash('sha1').update(bytes).digest('base64url');

/** Headers a response's own list must not set: cachedHeaderList adds them. */
const CACHING_HEADERS = new Set(['cache-control', 'vary', 'etag', 'content-encoding']);

export function makeResponse(status: number, body: string | Buffer, headers: Record<string, string> = {}): CachedResponse {
  for (const name in headers) if (CACHING_HEADERS.has(name)) throw new Error(`makeResponse: ${name} is set by cachedHeaders`);
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const etag = `W/"${sha1(bytes).slice(0, 27)}"`;
  return { status, body: bytes, etag, headers: { 'content-type': JSON_TYPE, ...headers } };
}

/** True when an If-None-Match header matches `etag` (weak comparison, RFC 9110 §13.1.2). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true; // what a client sends back, almost always
  if (header.trim() === '*') return true;
  const opaque = etag.slice(2);
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if (tag === etag || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}

type Encoding = 'br' | 'gzip' | null;
/** How a cached response goes out for one request. */
export type Outcome = 'not-modified' | Encoding;
const encodingMemo = new Map<string, Encoding>();

/** The best encoding the client accepts: br, then gzip, else none (q=0 refuses). */
export function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return null;
  const memo = encodingMemo.get(header);
  if (memo !== undefined) return memo;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name!.trim());
  }
  const choice: Encoding = accepted.has('br') ? 'br' : accepted.has('gzip') || accepted.has('*') ? 'gzip' : null;
  if (encodingMemo.size < 256) encodingMemo.set(header, choice);
  return choice;
}

function encoded(entry: CachedResponse, encoding: 'br' | 'gzip'): Buffer {
  let bytes = entry[encoding];
  if (bytes == null) {
    bytes =
      encoding === 'br'
        ? brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: entry.body.length } })
        : gzipSync(entry.body, { level: 6 });
    entry[encoding] = bytes;
  }
  return bytes;
}

/** Whether `entry` goes out as a 304, compressed, or as it is, for these request headers. */
export function negotiate(entry: CachedResponse, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): Outcome {
  if (entry.status === 200 && ifNoneMatchMatches(ifNoneMatch, entry.etag)) return 'not-modified';
  return entry.body.length >= COMPRESS_MIN_BYTES ? preferredEncoding(acceptEncoding) : null;
}

/**
 * The headers of a cached response for the negotiated outcome, on either path. A 304 keeps
 * only what RFC 9110 §15.4.5 asks of it (ETag, Cache-Control, Vary): the client already
 * holds the representation's own metadata (Content-Type, Link, X-Total-Count).
 */
export function cachedHeaders(entry: CachedResponse, outcome: Outcome): Record<string, string> {
  const list = cachedHeaderList(entry, outcome);
  const headers: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) headers[list[i]!] = list[i + 1]!;
  return headers;
}

/**
 * The same headers as a flat [name, value, …] list, as node:http's writeHead takes them (the
 * fast path): the route's own headers (never Cache-Control, Vary, ETag or Content-Encoding),
 * then those of caching and encoding.
 */
export function cachedHeaderList(entry: CachedResponse, outcome: Outcome): string[] {
  if (outcome === 'not-modified') return ['cache-control', CACHE_CONTROL, 'vary', 'Accept-Encoding', 'etag', entry.etag];
  const list: string[] = [];
  for (const name in entry.headers) list.push(name, entry.headers[name]!);
  list.push('cache-control', CACHE_CONTROL, 'vary', 'Accept-Encoding');
  if (entry.status === 200) list.push('etag', entry.etag);
  if (outcome !== null) list.push('content-encoding', outcome);
  return list;
}

/** The bytes to send for `outcome` (compressing on first demand), or null for a 304. */
export function cachedBody(entry: CachedResponse, outcome: Outcome): Buffer | null {
  if (outcome === 'not-modified') return null;
  return outcome === null ? entry.body : encoded(entry, outcome);
}

/** Sends a cached response: 304 on a matching If-None-Match, compressed when asked. */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedResponse,
): FastifyReply {
  const outcome = negotiate(entry, request.headers['if-none-match'], request.headers['accept-encoding']);
  reply.headers(cachedHeaders(entry, outcome));
  const body = cachedBody(entry, outcome);
  if (body === null) return reply.code(304).send();
  // Set here, not left to Fastify, so HEAD gets the length GET would (RFC 9110 §9.3.2).
  reply.header('content-length', String(body.length));
  // An empty body (a 301) goes out without one, so no content-type is invented for it.
  return reply.code(entry.status).send(body.length > 0 ? body : undefined);
}

