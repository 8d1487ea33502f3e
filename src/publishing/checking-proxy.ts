/**
 * The only way out for the Chromium the screenshot command drives: a local HTTP proxy that
 * checks every connection against the address policy (address-policy.ts) after resolving
 * its host name, then connects to the address it checked. Chromium resolves nothing itself
 * behind a proxy, so a name cannot be checked as public and then reached as private (DNS
 * rebinding), and every request goes through here: the page, each redirect (which
 * Playwright's request interception does not see), what the page loads, WebSockets.
 *
 * HTTPS and WebSockets arrive as CONNECT tunnels (the proxy sees the host and port, never
 * the content); plain HTTP as absolute-form requests, forwarded without keep-alive.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type AddressInfo, type Socket } from 'node:net';
import { AddressPolicy, RefusedAddressError } from './address-policy.js';

export interface Refusal {
  /** `host:port` as the connection asked for it. */
  target: string;
  message: string;
  /** True when the policy refused it; false when the connection failed (refused by the peer, no such host…). */
  refused: boolean;
}

export interface CheckingProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** What was refused, or could not connect, so far, in order. */
  refusals: Refusal[];
  close(): Promise<void>;
}

/** Headers that belong to one hop (RFC 9110 §7.6.1), not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** `host` without brackets, and the port, from a CONNECT target (`example.org:443`, `[::1]:8443`). */
function splitTarget(target: string): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(target) ?? /^([^:[\]]+):(\d{1,5})$/.exec(target);
  if (m === null || Number(m[2]) < 1 || Number(m[2]) > 65535) return null;
  return { host: m[1]!, port: Number(m[2]) };
}

export async function startCheckingProxy(addresses: AddressPolicy): Promise<CheckingProxy> {
  const refusals: Refusal[] = [];
  const sockets = new Set<Socket>();

  /** Throws RefusedAddressError for a literal address the policy refuses. */
  const checkLiteral = (host: string, port: number) => {
    if (isIP(host) === 0) return;
    const why = addresses.refusal(host, port);
    if (why !== null) throw new RefusedAddressError(`refused: ${why}`);
  };
  const refuse = (target: string, err: Error) => refusals.push({ target, message: err.message, refused: true });
  // Chromium only says the tunnel failed: remember why, for the capture's message.
  const failed = (target: string, err: NodeJS.ErrnoException) =>
    refusals.push({ target, message: err.code === 'ECONNREFUSED' ? 'connection refused' : err.code === 'ENOTFOUND' ? 'host name not found' : err.message, refused: false });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new RefusedAddressError(`refused: ${url.protocol} is not http`);
    } catch {
      res.writeHead(400, { connection: 'close' }).end();
      return;
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const target = `${url.hostname}:${port}`;
    try {
      checkLiteral(url.hostname.replace(/^\[|\]$/g, ''), port);
    } catch (err) {
      refuse(target, err as Error);
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end((err as Error).message);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    const upstream = httpRequest(url, { method: req.method, headers, agent: false, lookup: addresses.lookupFor(port) }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, { ...out, connection: 'close' });
      answer.pipe(res);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof RefusedAddressError) refuse(target, err);
      else failed(target, err);
      if (!res.headersSent) res.writeHead(err instanceof RefusedAddressError ? 403 : 502, { connection: 'close' }).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => {});
    const target = req.url ?? '';
    const parsed = splitTarget(target);
    if (parsed === null) {
      client.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    const refused = (err: Error) => {
      refuse(target, err);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n\r\n${err.message}`);
    };
    try {
      checkLiteral(parsed.host, parsed.port);
    } catch (err) {
      refused(err as Error);
      return;
    }
    const upstream = connect({ host: parsed.host, port: parsed.port, lookup: addresses.lookupFor(parsed.port) });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof RefusedAddressError) refused(err);
      else if (!connected) {
        failed(target, err);
        client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
      } else client.destroy();
    });
    client.once('close', () => upstream.destroy());
  });

  // A plain-HTTP WebSocket sent as an upgrade rather than a tunnel: not something a page needs here.
  server.on('upgrade', (_req: IncomingMessage, socket: Socket) => socket.destroy());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
