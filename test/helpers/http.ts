/**
 * `send(port, path, options)`: one HTTP request over a real socket to a listening app, for
 * what `app.inject` cannot show (the fast path, socket addresses, keep-alive, shutdown).
 */
import { request as httpRequest, type Agent } from 'node:http';
import { connect } from 'node:net';

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

/**
 * Sends `text` as is over a fresh TCP connection and reads until the server closes it:
 * for requests an HTTP client library will not write (no Host, HTTP/1.0, a half-sent
 * request). The response is parsed as one HTTP/1.x message with a Content-Length body.
 */
export function sendRaw(port: number, text: string, options: { localAddress?: string } = {}): Promise<SocketResponse & { raw: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      resolve({ ...parseResponse(raw), raw });
    });
    socket.write(text);
  });
}

/** The first HTTP/1.x response in `raw`: status, lower-cased headers, body. */
export function parseResponse(raw: Buffer): SocketResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: Buffer.alloc(0) };
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim() : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
  }
  const length = headers['content-length'] === undefined ? raw.length - end - 4 : Number(headers['content-length']);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: raw.subarray(end + 4, end + 4 + length) };
}
