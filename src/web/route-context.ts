/** What every route module receives from the app. */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import type { Config } from '../config.js';
import type { DirectoryState, LiveDirectory } from '../live-directory.js';
import type { CachedResponse } from './cached-response.js';
import type { License } from '../directory/representations.js';

export interface RouteContext {
  config: Config;
  directory: LiveDirectory;
  license: License;
  /** `<https://creativecommons.org/licenses/by/4.0/>; rel="license"` */
  licenseLink: string;
  /**
   * Sends a cached response (cached-response.ts, sendCached) and remembers the raw request
   * in `state`, the revision the entry was built from, for the fast path.
   */
  send(request: FastifyRequest, reply: FastifyReply, state: DirectoryState, entry: CachedResponse): FastifyReply;
}

export const CC_BY = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' } as const;

/**
 * Registers a GET route and a HEAD route with the same handler. Fastify's own HEAD routes
 * (exposeHeadRoutes, turned off in app.ts) send `Content-Length: 0` on a 304, which RFC 9110
 * §8.6 forbids when the 200 would have a body; with an explicit HEAD route the reply keeps
 * the headers sendCached sets, and Node drops the body.
 */
export function getAndHead(app: FastifyInstance, url: string, options: RouteShorthandOptions, handler: RouteHandlerMethod): void {
  app.get(url, options, handler);
  app.head(url, options, handler);
}
