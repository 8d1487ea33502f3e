/**
 * GET /media/{file}: the screenshots of content/media/ (written by `npm run screenshots`).
 * Their names carry a fingerprint of their bytes, so a new capture is a new URL and each
 * file can be cached for ever (`immutable`, RFC 8246). PUBLIC_MEDIA_URL lets a CDN serve
 * the same folder instead; this route stays as its origin.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ifNoneMatchMatches } from '../../web/cached-response.js';
import { MESSAGES } from '../../directory/messages.js';
import { ProblemError } from '../../directory/problems.js';
import { MEDIA_PREFIX } from '../../directory/representations.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';

/** A screenshot or its 640-wide variant; nothing else in the folder is served. */
export const MEDIA_FILE = /^[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{12}(?:-640)?\.webp$/;
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export function mediaRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const dir = path.join(ctx.config.contentDir, 'media');
  getAndHead(app, `${MEDIA_PREFIX}/:file`, { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    // Params arrive percent-decoded: only a plain file name of the expected shape is looked up.
    const missing = () => new ProblemError('not-found', MESSAGES.noSuchMedia(file.slice(0, 120)));
    if (!MEDIA_FILE.test(file)) throw missing();
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(dir, file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw missing();
      throw err;
    }
    // The fingerprint names the bytes: it is a strong validator.
    const etag = `"${file.replace(/\.webp$/, '')}"`;
    reply.header('cache-control', MEDIA_CACHE_CONTROL).header('etag', etag);
    if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('image/webp').header('content-length', bytes.length).send(bytes);
  });
}
