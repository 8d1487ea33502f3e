/**
 * /healthz (the process is alive) and /readyz (data loaded, revision, whether the store and
 * the limiter are reachable; 503 while shutting down). Outside the rate limit and the
 * public OpenAPI document. Neither says which software runs behind the API, in which
 * version, nor how many clients the limiter tracks: anyone can call them, and the start-up
 * log (server.ts) has all of that for the operator.
 */
import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';

export interface Lifecycle {
  /** Set at SIGTERM: /readyz answers 503 so load balancers stop sending traffic. */
  shuttingDown: boolean;
}

export function operationRoutes(app: FastifyInstance, ctx: RouteContext, limiter: RateLimiter | null, lifecycle: Lifecycle): void {
  getAndHead(app, '/healthz', { schema: { hide: true } }, (_request, reply) => {
    reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send('{"status":"ok"}');
  });

  getAndHead(app, '/readyz', { schema: { hide: true } }, (_request, reply) => {
    const { model } = ctx.directory.current;
    const ready = !lifecycle.shuttingDown;
    reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(
        JSON.stringify({
          status: ready ? 'ready' : 'shutting-down',
          revision: model.revision,
          loaded_at: model.loadedAt.toISOString(),
          tools: model.tools.length,
          store: { reachable: ctx.directory.storeReachable },
          rate_limiter: { enabled: limiter !== null, reachable: limiter?.reachable ?? true },
        }),
      );
  });
}
