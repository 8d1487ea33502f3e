/**
 * `send(port, path, options)`: one HTTP request over a real socket to a listening app, for
 * what `app.inject` cannot show (the fast path, socket addresses, keep-alive, shutdown).
 */
import { request as httpRequest, type Agent } from 'node:http';

export interface SocketResponse { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }
export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The client address to send from (127.0.0.2 is another client than 127.0.0.1). */
  localAddress?: string;
  body?: string;
  /** Default: a fresh connection per request. */
  agent?: Agent;
}

export function send(port: number, path: string, options: SendOptions = {}): Promise<SocketResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: options.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
