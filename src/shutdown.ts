/**
 * Graceful shutdown: flag /readyz 503, stop accepting, let in-flight requests finish, and
 * close idle keep-alive sockets — at once and again as requests finish — because
 * `fastify.close()` alone can wait on an idle keep-alive socket for its whole timeout
 * (fastify#7044).
 */
import type { FastifyInstance } from 'fastify';
import type { Lifecycle } from './http/routes/operations.js';

export async function drainAndClose(app: FastifyInstance, lifecycle: Lifecycle): Promise<void> {
  lifecycle.shuttingDown = true;
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    const closing = app.close();
    app.server.closeIdleConnections();
    await closing;
  } finally {
    clearInterval(sweeper);
  }
}
