/**
 * The baseline: a bare node:http server that replays recorded responses byte for byte
 * (same status, headers and body; on a matching If-None-Match, the 304 our server sent,
 * headers included). Whatever our server does beyond this is its overhead.
 * An entry recorded under `*` answers every URL not recorded (the growth test's ceiling: one
 * page of a never-seen search, sent for every query, since no query can be recorded in advance).
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string; // base64
  notModified: Record<string, string> | null;
}

const [file, port] = [process.argv[2]!, Number(process.argv[3])];
const recorded = new Map<string, { status: number; headers: Record<string, string>; body: Buffer; etag: string | undefined; notModified: Record<string, string> | null }>();
for (const [url, r] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Recorded>)) {
  recorded.set(url, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64'), etag: r.headers.etag, notModified: r.notModified });
}

createServer((req, res) => {
  const r = recorded.get(req.url!) ?? recorded.get('*');
  if (r === undefined) {
    res.writeHead(404).end();
    return;
  }
  if (r.notModified !== null && req.headers['if-none-match'] === r.etag) {
    res.writeHead(304, r.notModified).end();
    return;
  }
  res.writeHead(r.status, r.headers).end(r.body);
}).listen(port, '127.0.0.1', () => process.send?.('ready'));
