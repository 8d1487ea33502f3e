/**
 * Graceful shutdown: /readyz turns 503, the listener stops accepting, every response still
 * to be written announces `Connection: close`, each connection is closed once nothing is
 * left to do on it, and the process exits when the last one has closed.
 *
 * Three things Node's and Fastify's own close get wrong for this (issue 17, items 8–10):
 * - `http.Server#close` stops checking `headersTimeout`/`requestTimeout`, so a client
 *   trickling half a request holds the shutdown for the whole grace period. The listener is
 *   closed with `net.Server#close` instead, which leaves those checks running: the trickler
 *   gets its 408 as at any other time.
 * - `closeIdleConnections` destroys a socket whose last response is finished but not yet
 *   flushed (a slow reader), cutting it. Here a connection is closed only when it has no
 *   response under way, nothing left to flush and no request begun, and it is ended (FIN
 *   after the data), never destroyed.
 * - A response already under way when the signal came was going to say keep-alive; the
 *   client would send its next request on a connection about to close. Those not yet
 *   started now say `Connection: close`, and Node ends the connection after them.
 *
 * And two bounds, so that a client cannot hold the shutdown past the grace period (a
 * client that pipelined four 1 MB exports and never read them kept its connection "under
 * way" for good: exit 1 after 10 s): a connection whose unsent data has not moved for
 * `stallMs` is destroyed (its client is not reading: ending it would wait for nothing), and
 * at `deadlineMs` every connection still open is destroyed, so the process exits 0 within
 * the grace period even with a client that reads, but too slowly to finish.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Lifecycle } from './http/routes/operations.js';

type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/** The open connections of each tracked server. */
const connections = new WeakMap<Server, Set<HttpSocket>>();
/** Per socket, its `bytesRead` when its last response finished: more since then = a request begun. */
const readAtLastResponse = new WeakMap<Socket, number>();

// One subscriber for the process: Node publishes on this channel only when someone listens,
// and a WeakMap write per response is all it costs.
subscribe('http.server.response.finish', (message) => {
  const { socket } = message as { socket?: Socket | null; request: IncomingMessage };
  if (socket) readAtLastResponse.set(socket, socket.bytesRead);
});

/** Remembers `server`'s connections, for `drainAndClose`. Called where the server is made. */
export function trackConnections(server: Server): void {
  const open = new Set<HttpSocket>();
  connections.set(server, open);
  server.on('connection', (socket: HttpSocket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/** How long a client told to go away may keep its end open before the socket is destroyed. */
const END_GRACE_MS = 2_000;

export interface DrainOptions {
  /** A connection whose unsent data does not move for this long is destroyed. */
  stallMs?: number;
  /** From the start of the drain: every connection still open is then destroyed. None by default. */
  deadlineMs?: number;
}

/** Per socket with data waiting for its client: where that data stood, and since when. */
const progress = new WeakMap<Socket, { mark: string; since: number }>();

/**
 * True when `socket` has data its client has not taken and none of it has moved for
 * `stallMs`. Moving: the stream's buffer (`writableLength`), what it handed to libuv
 * (`bytesWritten`) or libuv's own queue (`writeQueueSize`, which shrinks with each partial
 * write, so a slow reader of one large chunk is seen to read).
 */
function stalled(socket: HttpSocket, stallMs: number, now: number): boolean {
  const queued = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize ?? 0;
  if (socket.writableLength === 0 && queued === 0) {
    progress.delete(socket);
    return false;
  }
  const mark = `${socket.bytesWritten}:${socket.writableLength}:${queued}`;
  const seen = progress.get(socket);
  if (seen === undefined || seen.mark !== mark) {
    progress.set(socket, { mark, since: now });
    return false;
  }
  return now - seen.since >= stallMs;
}

function sweep(open: Set<HttpSocket>, stallMs: number): void {
  const now = Date.now();
  for (const socket of open) {
    if (socket.destroyed) continue;
    if (stalled(socket, stallMs, now)) {
      socket.destroy();
      continue;
    }
    const response = socket._httpMessage;
    if (response != null) {
      // Under way: if its head is not written yet, it will be the connection's last.
      if (!response.headersSent && response.getHeader('connection') !== 'close') response.setHeader('connection', 'close');
      continue;
    }
    if (socket.writableLength > 0 || socket.writableEnded) continue; // still flushing, or already told
    // A request begun (bytes since the last response): Node's timeouts still apply to it,
    // and it will be answered with `Connection: close`, or with a 408.
    if (socket.bytesRead !== (readAtLastResponse.get(socket) ?? 0)) continue;
    socket.end();
    const cut = setTimeout(() => socket.destroy(), END_GRACE_MS);
    cut.unref();
    socket.once('close', () => clearTimeout(cut));
  }
}

export async function drainAndClose(app: FastifyInstance, lifecycle: Lifecycle, options: DrainOptions = {}): Promise<void> {
  lifecycle.shuttingDown = true;
  const server = app.server;
  const open = connections.get(server);
  const stallMs = options.stallMs ?? END_GRACE_MS;
  if (open !== undefined && server.listening) {
    // Stop accepting; resolves once every connection has closed.
    const drained = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    sweep(open, stallMs);
    const sweeper = setInterval(() => sweep(open, stallMs), 50);
    const deadline =
      options.deadlineMs === undefined
        ? null
        : setTimeout(() => {
            for (const socket of open) socket.destroy();
          }, options.deadlineMs);
    try {
      await drained;
    } finally {
      clearInterval(sweeper);
      if (deadline !== null) clearTimeout(deadline);
    }
  }
  // Fastify's hooks and the rest of its close; the listener is already closed.
  await app.close();
}
