/**
 * Issue 17, items 8–10: draining at SIGTERM over real sockets. Half-sent requests are still
 * cut by the header timeout, responses being written are never cut, and responses under way
 * announce `Connection: close`.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test, type TestContext } from 'node:test';
import { drainAndClose } from '../../src/shutdown.js';
import { API, buildTestApp, closed } from '../helpers/build-app.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { parseResponse, send } from '../helpers/http.js';
import { startServer } from '../helpers/server-process.js';

test('drain › SIGTERM while a client holds half a request open: the client gets a 408, the process exits 0 well before the grace period', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), fixtureDataset());
  const server = await startServer(t, { DATABASE_URL: path.join(dir, 'db.sqlite'), CONTENT_DIR: content, SHUTDOWN_GRACE_MS: '30000' });
  const socket = connect(server.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`GET ${API}/tools HTTP/1.1\r\nHost: x\r\n`); // and never the rest
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString()));
  socket.on('error', () => {});
  await sleep(300); // the half request has reached the server
  const started = Date.now();
  const { code } = await server.stop('SIGTERM');
  const took = Date.now() - started;
  assert.equal(code, 0, `exit code (stderr: ${server.stderr()})`);
  // The headers timeout is 5 s, checked every second: far below the 30 s grace period.
  assert.ok(took < 15_000, `exited after ${took} ms`);
  assert.match(received, /^HTTP\/1\.1 408 /);
});

test('drain › a slow reader of 200 pipelined requests gets only whole responses, and the connection ends cleanly', async (t) => {
  const lifecycle = { shuttingDown: false };
  const { app } = await buildTestApp(t, { lifecycle, env: { RATE_LIMIT_MAX: '0' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const socket = connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  socket.pause(); // reads nothing for now: the server's writes back up
  const request = `GET ${API}/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n`;
  socket.write(request.repeat(200));
  await sleep(500);
  const closing = drainAndClose(app, lifecycle);
  closed.add(app);
  await sleep(300);
  // Now read slowly, everything, until the server closes.
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => {
    chunks.push(c);
    socket.pause();
    setTimeout(() => socket.resume(), 1);
  });
  socket.resume();
  await once(socket, 'close');
  await closing;
  let rest = Buffer.concat(chunks);
  assert.ok(rest.length > 0, 'responses were received');
  let whole = 0;
  let last: ReturnType<typeof parseResponse> | undefined;
  while (rest.length > 0) {
    const response = parseResponse(rest);
    const headEnd = rest.indexOf('\r\n\r\n') + 4;
    const length = Number(response.headers['content-length']);
    assert.equal(response.status, 200, `response ${whole + 1}`);
    assert.ok(rest.length >= headEnd + length, `response ${whole + 1} is whole (${rest.length - headEnd} of ${length} body bytes)`);
    JSON.parse(response.body.toString());
    rest = rest.subarray(headEnd + length);
    last = response;
    whole++;
  }
  // Either every request was answered, or the last answer said it was the last: the
  // requests after it were never begun, and a client retries them elsewhere.
  if (whole < 200) assert.equal(last!.headers['connection'], 'close', `the last of ${whole} responses said it was the last`);
});

test('drain › a keep-alive response under way at SIGTERM announces Connection: close, and the client does not reuse the connection', async (t) => {
  const lifecycle = { shuttingDown: false };
  const { app } = await buildTestApp(t, {
    lifecycle,
    routes: (a) => a.get('/test-slow', async () => {
      await sleep(300);
      return { done: true };
    }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  const inFlight = Array.from({ length: 5 }, () => send(port, '/test-slow', { agent }));
  await sleep(100);
  const closing = drainAndClose(app, lifecycle);
  closed.add(app);
  for (const response of await Promise.all(inFlight)) {
    assert.equal(response.status, 200);
    assert.equal(response.headers['connection'], 'close');
  }
  await closing;
  await sleep(50);
  const free = Object.values(agent.freeSockets).flat();
  assert.equal(free.length, 0, 'no connection is kept for reuse');
});

/** About 200 tools with long descriptions: each export is over a megabyte. */
async function bigContent(t: TestContext): Promise<{ dir: string; content: string }> {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const dataset = fixtureDataset();
  const paragraph = 'Une description longue, répétée pour que chaque fiche pèse plusieurs kilo-octets dans les exports. '.repeat(14).trim();
  const template = dataset.tools[0]!;
  for (let i = 0; i < 200; i++) {
    dataset.tools.push({ ...template, slug: `outil-${i}`, name: `Outil numéro ${i}`, website_url: `https://outil-${i}.example.org/`, former_slugs: [], long_description: [paragraph, paragraph, paragraph, paragraph].join('\n\n') });
  }
  return { dir, content: await writeContent(path.join(dir, 'content'), dataset) };
}

/**
 * The server on `bigContent` with this grace period, a client that sent `count` pipelined
 * export requests on one socket and has not read yet, and a SIGTERM that must end in exit 0
 * within the grace period.
 */
async function exportsPipelined(t: TestContext, grace: number, count: number) {
  const { dir, content } = await bigContent(t);
  const server = await startServer(t, { DATABASE_URL: path.join(dir, 'db.sqlite'), CONTENT_DIR: content, SHUTDOWN_GRACE_MS: String(grace), RATE_LIMIT_MAX: '0' });
  const whole = await send(server.port, `${API}/export/tools.ndjson`);
  assert.ok(whole.body.length > 1024 * 1024, `the export is ${whole.body.length} bytes`);
  const socket = connect(server.port, '127.0.0.1');
  t.after(() => socket.destroy());
  await once(socket, 'connect');
  socket.pause();
  socket.on('error', () => {});
  socket.write(`GET ${API}/export/tools.ndjson HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count));
  return {
    socket,
    async stopsInTime() {
      await sleep(1_000); // the server has written what the socket takes, and waits
      const started = Date.now();
      const { code } = await server.stop('SIGTERM');
      const took = Date.now() - started;
      assert.equal(code, 0, `exit code after ${took} ms (stderr: ${server.stderr()})`);
      assert.ok(took < grace, `exited after ${took} ms`);
    },
  };
}

test('drain › SIGTERM while a client reads pipelined exports, but too slowly to finish: cut at the deadline, exit 0 within the grace period', async (t) => {
  const { socket, stopsInTime } = await exportsPipelined(t, 4_000, 8);
  // 16 kB every 50 ms: always reading, never fast enough to take 10 MB within the grace period.
  const reader = setInterval(() => socket.read(16 * 1024), 50);
  t.after(() => clearInterval(reader));
  await stopsInTime();
});

test('drain › SIGTERM while a client that never reads holds four pipelined 1 MB exports: the socket is ended and the process exits 0 within the grace period', async (t) => {
  const { stopsInTime } = await exportsPipelined(t, 10_000, 4);
  await stopsInTime();
});
