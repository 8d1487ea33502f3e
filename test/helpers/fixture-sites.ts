/**
 * Local websites for the publishing commands' tests: an HTTPS server on 127.0.0.1 with a
 * self-signed certificate (test/fixtures/tls, valid for IP 127.0.0.1 until 2126), routes a
 * test defines, and a log of the requests it received. Nothing leaves the machine.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TestContext } from 'node:test';

const TLS_DIR = path.resolve(import.meta.dirname, '../fixtures/tls');
/** The certificate to trust (NODE_EXTRA_CA_CERTS for Node.js). */
export const TEST_CERT_FILE = path.join(TLS_DIR, 'cert.pem');
const CERT = readFileSync(TEST_CERT_FILE);
const KEY = readFileSync(path.join(TLS_DIR, 'key.pem'));

/** The certificate's public key hash, as Chromium's --ignore-certificate-errors-spki-list takes it. */
export const TEST_CERT_SPKI = createHash('sha256')
  .update(createPublicKey(CERT).export({ type: 'spki', format: 'der' }))
  .digest('base64');

export interface LoggedRequest {
  method: string;
  path: string;
  userAgent: string | undefined;
  at: number;
}

export type Route = (req: IncomingMessage, res: ServerResponse, log: LoggedRequest[]) => void;

export interface FixtureSite {
  /** `https://127.0.0.1:PORT` */
  origin: string;
  port: number;
  log: LoggedRequest[];
  /** Requests in flight at once, at most, since the start. */
  maxInFlight: number;
}

function listen(t: TestContext, server: Server, routes: Record<string, Route>, scheme: 'http' | 'https'): Promise<FixtureSite> {
  const site: FixtureSite = { origin: '', port: 0, log: [], maxInFlight: 0 };
  let inFlight = 0;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    site.log.push({ method: req.method ?? '', path: url.pathname, userAgent: req.headers['user-agent'], at: Date.now() });
    inFlight++;
    site.maxInFlight = Math.max(site.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const route = routes[url.pathname];
    if (route) route(req, res, site.log);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      site.port = (server.address() as AddressInfo).port;
      site.origin = `${scheme}://127.0.0.1:${site.port}`;
      t.after(() => new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }));
      resolve(site);
    });
  });
}

export function startHttpsSite(t: TestContext, routes: Record<string, Route>): Promise<FixtureSite> {
  return listen(t, createHttpsServer({ cert: CERT, key: KEY }), routes, 'https');
}

/** A plain-HTTP server: `https://` to its port is a TLS error. */
export function startHttpSite(t: TestContext, routes: Record<string, Route>): Promise<FixtureSite> {
  return listen(t, createHttpServer(), routes, 'http');
}

/** A port nothing listens on (taken, then freed). */
export async function closedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const html = (body: string, status = 200): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
};

export const redirect = (location: string, status = 301): Route => (_req, res) => {
  res.writeHead(status, { location }).end();
};
