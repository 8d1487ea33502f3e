/**
 * Answers that Node writes itself, below Fastify: a request it cannot parse (400), headers
 * over the 16 kB bound (431), a request not finished in time (408), an `Expect` it cannot
 * meet (417). Node's and Fastify's defaults send them bare: no CORS (a browser client cannot
 * even read the status), no problem body, no `Cache-Control`, and for 400 and 431 no
 * `Connection: close` although the socket is then destroyed, so a keep-alive client's next
 * request fails. Here they are problems like every other error, announced as the last
 * answer on the connection, which is then closed once the answer is written.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_TYPE } from '../web/problem-reply.js';
import { MESSAGES, negotiateLanguage, type Lang, type Text } from '../directory/messages.js';
import { problemBody, type ProblemCode } from '../directory/problems.js';

export interface ClientErrorDependencies {
  /** Headers every response carries, as [name, value, name, value, …]. */
  commonHeaders: readonly string[];
  /** Base of the problem types (problem-reply.ts, problemBase). */
  base: string;
  newRequestId: () => string;
}

interface Refusal {
  status: number;
  code: ProblemCode;
  detail: Text;
}

function refusalFor(err: NodeJS.ErrnoException): Refusal {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'request-timeout', detail: MESSAGES.timeout() };
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'headers-too-large', detail: MESSAGES.headersTooLarge() };
  }
  return { status: 400, code: 'bad-request', detail: MESSAGES.notHttp() };
}

/** The wire form of a problem answer that ends the connection. */
function problemHead(body: string, lang: Lang, deps: ClientErrorDependencies): string[] {
  return [
    ...deps.commonHeaders,
    'x-request-id', deps.newRequestId(),
    'content-type', PROBLEM_TYPE,
    'content-language', lang,
    'content-length', String(Buffer.byteLength(body)),
    // Not a property of the URL (there may not even be one): never stored.
    'cache-control', 'no-store',
    'connection', 'close',
  ];
}

/** Fastify's `clientErrorHandler`: Node's `clientError` event, answered as a problem. */
export function createClientErrorHandler(deps: ClientErrorDependencies): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    // A response already under way on this socket cannot be followed by another.
    if (!socket.writable || (pending != null && pending.headersSent)) {
      socket.destroy();
      return;
    }
    const { status, code, detail } = refusalFor(err);
    // The headers were not read (or not understood): the default language.
    const body = problemBody(code, deps.base, '', detail, 'fr', {}, undefined, status);
    const head = problemHead(body, 'fr', deps);
    let text = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`;
    for (let i = 0; i < head.length; i += 2) text += `${head[i]}: ${head[i + 1]}\r\n`;
    socket.end(`${text}\r\n${body}`);
    // Node paused the socket when its parser gave up: read (and drop) what the client still
    // sends, so its end of the connection is seen and the socket closes.
    socket.resume();
    // A peer that neither reads the answer nor closes its side does not keep the socket.
    const cut = setTimeout(() => socket.destroy(), 2_000);
    cut.unref();
    socket.once('close', () => clearTimeout(cut));
  };
}

/** Node's `checkExpectation` event: an `Expect` other than `100-continue`. */
export function answerExpectation(deps: ClientErrorDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const lang = negotiateLanguage(req.headers['accept-language']);
    const detail = MESSAGES.expectation(String(req.headers.expect).slice(0, 100));
    const body = problemBody('expectation-failed', deps.base, (req.url ?? '').split('?', 1)[0]!, detail, lang, {}, undefined, 417);
    res.writeHead(417, [...problemHead(body, lang, deps), 'vary', 'Accept-Language']);
    res.end(body);
  };
}
