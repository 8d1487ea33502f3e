import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { drainAndClose } from '../../src/shutdown.js';
import { API, buildTestApp, closed } from '../helpers/build-app.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { send } from '../helpers/http.js';
import { SERVER, startServer } from '../helpers/server-process.js';
import { freePort } from '../helpers/services.js';

function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (c) => (out += c.toString()));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(text);
  });
}

test('shutdown › in-flight requests finish, idle keep-alive sockets do not hold the close', async (t) => {
  const lifecycle = { shuttingDown: false };
  const { app } = await buildTestApp(t, {
    lifecycle,
    routes: (a) => a.get('/test-slow', async () => {
      await sleep(400);
      return { done: true };
    }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  assert.equal((await send(port, `${API}/categories`, { agent })).status, 200); // leaves an idle keep-alive socket
  const inFlight = send(port, '/test-slow');
  await sleep(50);
  const started = Date.now();
  const closing = drainAndClose(app, lifecycle);
  closed.add(app);
  assert.equal(lifecycle.shuttingDown, true);
  const res = await inFlight;
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.body.toString()), { done: true });
  await closing;
  // Bound, not a benchmark: without closing idle sockets this waits for keepAliveTimeout (65 s).
  assert.ok(Date.now() - started < 5_000, `closed in ${Date.now() - started} ms`);
});

test('hardening › a client dripping its headers is cut off in seconds', async (t) => {
  const { app } = await buildTestApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`GET ${API}/tools HTTP/1.1\r\nHost: x\r\n`);
  const started = Date.now();
  let closedAt = 0;
  socket.on('close', () => (closedAt = Date.now()));
  socket.on('error', () => {});
  for (let i = 0; i < 20 && closedAt === 0; i++) {
    await sleep(500);
    if (!socket.destroyed) socket.write(`X-Drip-${i}: a\r\n`);
  }
  assert.ok(closedAt > 0, 'the server closed the connection');
  assert.ok(closedAt - started < 9_000, `cut off after ${closedAt - started} ms`);
});

test('hardening › 20 kB of headers or of URL are refused with 431, not served', async (t) => {
  const { app } = await buildTestApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const bigHeader = await rawExchange(port, `GET ${API}/tools HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
  assert.match(bigHeader, /^HTTP\/1\.1 431 /);
  const bigUrl = await rawExchange(port, `GET ${API}/tools?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  assert.match(bigUrl, /^HTTP\/1\.1 431 /);
  const tenKb = await send(port, `${API}/tools?x=${'a'.repeat(10_000)}`);
  assert.equal(tenKb.status, 200, 'a 10 kB query string of unknown parameters is still served');
});


test('process › npm start path: fills an empty database, serves, exits 0 on SIGTERM with an idle keep-alive client', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), fixtureDataset());
  const server = await startServer(t, { DATABASE_URL: path.join(dir, 'db.sqlite'), CONTENT_DIR: content });
  const list = await send(server.port, `${API}/tools`);
  assert.equal(JSON.parse(list.body.toString()).meta.total, 9);
  const agent = new Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  assert.equal((await send(server.port, `${API}/categories`, { agent })).status, 200);
  const started = Date.now();
  const exit = await server.stop('SIGTERM');
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
  assert.ok(Date.now() - started < 5_000, `exited after ${Date.now() - started} ms`);
});

test('process › the start-up log names Node.js, the store and its driver, and the limiter: what /readyz no longer tells', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), fixtureDataset());
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', REDIS_URL: '', DATABASE_URL: path.join(dir, 'db.sqlite'), CONTENT_DIR: content },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => child.kill('SIGKILL'));
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  let ready = false;
  for (let i = 0; i < 150 && !ready && child.exitCode === null; i++) {
    await sleep(100);
    ready = await send(port, '/readyz').then((r) => r.status === 200, () => false);
  }
  assert.ok(ready, log);
  const lines = log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const store = lines.find((l) => l.msg === 'store opened');
  assert.equal(store?.node, process.version, log);
  assert.equal(store?.engine, 'sqlite');
  assert.match(String(store?.driver), /^better-sqlite3 \d+\.\d+\.\d+ \(SQLite 3\./);
  assert.equal(lines.find((l) => l.msg === 'rate limiter ready')?.rate_limiter, 'memory', log);
});

test('process › a bad configuration value stops the start with a message naming it', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, RATE_LIMIT_MAX: 'lots', DATABASE_URL: ':memory:' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(stderr, /RATE_LIMIT_MAX: must be a whole number/);
  const trust = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, TRUST_PROXY: 'true', DATABASE_URL: ':memory:' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let trustErr = '';
  trust.stderr.on('data', (c) => (trustErr += c));
  assert.equal((await once(trust, 'exit'))[0], 2);
  assert.match(trustErr, /TRUST_PROXY: "true" would trust any client/);
});
