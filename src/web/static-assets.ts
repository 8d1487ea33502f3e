/**
 * Files the HTML pages load (the reference's script bundle, the home page's stylesheet):
 * named by a hash of their content, so a URL never changes meaning and browsers and CDNs
 * may keep them for a year without asking again (`immutable`, RFC 8246). Their br and
 * gzip variants are made once per process, in the thread pool, before the first answer;
 * never per request. They are outside the rate limit (problem-reply.ts, exemptFromRateLimit):
 * a page's own files are not the data the limit shares out.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchMatches, preferredEncoding } from './cached-response.js';
import { exemptFromRateLimit } from './problem-reply.js';

export const ASSET_PREFIX = '/assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface StaticAsset {
  /** `/assets/<name>.<hash>.<ext>` */
  path: string;
  type: string;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Base64url of the content's SHA-256, cut to 16 characters (96 bits): the file's name. */
export function fingerprint(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

/**
 * `name.ext` served as `/assets/name.<hash>.ext`, with its compressed variants. Brotli at
 * quality 9: for the 4.9 MB reference bundle, 1.18 MB in about 2 s, where quality 11 saves
 * another 0.1 MB for 25 s of CPU at every start.
 */
export async function makeStaticAsset(name: string, ext: string, type: string, body: Buffer): Promise<StaticAsset> {
  const hash = fingerprint(body);
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: 9 }),
  ]);
  const path = `${ASSET_PREFIX}${name}.${hash}.${ext}`;
  const asset = { path, type, body, br, gzip: gz, etag: `"${hash}"` };
  exemptFromRateLimit(path);
  made.set(path, asset);
  return asset;
}

/** Every asset made in this process, by path: the same bytes serve every app. */
const made = new Map<string, StaticAsset>();

export function findStaticAsset(path: string): StaticAsset | undefined {
  return made.get(path);
}

/** Sends an asset: 304 on a matching If-None-Match, else br or gzip when accepted. */
export function sendStaticAsset(request: FastifyRequest, reply: FastifyReply, asset: StaticAsset): FastifyReply {
  reply.header('cache-control', IMMUTABLE).header('vary', 'Accept-Encoding').header('etag', asset.etag);
  if (ifNoneMatchMatches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  const body = encoding === null ? asset.body : asset[encoding];
  if (encoding !== null) reply.header('content-encoding', encoding);
  return reply.code(200).header('content-type', asset.type).header('content-length', String(body.length)).send(body);
}
