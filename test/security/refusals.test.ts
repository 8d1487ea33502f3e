/**
 * Issue 17, items 4, 11 and 12: answers written below the routes (by Node, or by the router)
 * are problems like every other, identified and counted; what a cacheable answer carries
 * that belongs to one client is exactly the documented list a CDN must drop.
 */
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { PER_CLIENT_HEADERS } from '../../src/web/problem-reply.js';
import { API, buildTestApp, type TestAppOptions } from '../helpers/build-app.js';
import { send, sendRaw, type SocketResponse } from '../helpers/http.js';

async function listening(t: Parameters<typeof buildTestApp>[0], options: TestAppOptions = {}) {
  const built = await buildTestApp(t, options);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...built, port: (built.app.server.address() as AddressInfo).port };
}

function assertProblem(r: SocketResponse, status: number, label: string): void {
  assert.equal(r.status, status, label);
  assert.equal(r.headers['access-control-allow-origin'], '*', `${label}: CORS`);
  assert.match(String(r.headers['access-control-expose-headers']), /X-Request-Id/, `${label}: exposed headers`);
  assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8', label);
  assert.equal(r.headers['cache-control'], 'no-store', `${label}: never stored`);
  assert.equal(r.headers['connection'], 'close', `${label}: the connection ends, and says so`);
  assert.match(String(r.headers['x-request-id']), /\S/, `${label}: a request id`);
  const body = JSON.parse(r.body.toString()) as { status: number; type: string; title: string; detail: string };
  assert.equal(body.status, status, label);
  assert.match(body.type, /\/problems\/[a-z-]+$/, label);
  assert.ok(body.title.length > 0 && body.detail.length > 0, label);
}

test('refusals › what Node refuses (400, 431, 417, 408) is a problem with CORS, no-store and Connection: close', async (t) => {
  const { port } = await listening(t);
  assertProblem(await sendRaw(port, 'GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'unparsable request line');
  assertProblem(await sendRaw(port, `GET ${API}/tools HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`), 400, 'malformed header');
  assertProblem(await sendRaw(port, `GET ${API}/tools HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431, 'headers over 16 kB');
  assertProblem(await sendRaw(port, `GET ${API}/tools HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n`), 417, 'an expectation not met');
  // Half a request, then nothing: cut after the 5 s headers timeout with a 408 problem.
  assertProblem(await sendRaw(port, `GET ${API}/tools HTTP/1.1\r\nHost: x\r\n`), 408, 'headers never finished');
});

test('refusals › a keep-alive client whose request Node refuses can send its next request', async (t) => {
  const { port } = await listening(t);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  assert.equal((await send(port, `${API}/categories`, { agent })).status, 200);
  const refused = await send(port, `${API}/categories`, { agent, headers: { 'x-big': 'a'.repeat(20_000) } });
  assertProblem(refused, 431, 'headers over 16 kB on a kept-alive connection');
  // Told `Connection: close`, the agent opens a new connection instead of failing on the old one.
  assert.equal((await send(port, `${API}/categories`, { agent })).status, 200);
});

test('refusals › router refusals (bad percent-encoding, over-long slug) carry a request id and count toward the limit', async (t) => {
  const { port } = await listening(t, { env: { RATE_LIMIT_MAX: '3' } });
  const from = { localAddress: '127.0.0.7' };
  const bad = await send(port, `${API}/tools/%E0%A4%A`, from);
  assert.equal(bad.status, 400);
  const long = await send(port, `${API}/tools/${'a'.repeat(150)}`, from);
  assert.equal(long.status, 414);
  for (const [r, remaining] of [[bad, '2'], [long, '1']] as const) {
    assert.match(String(r.headers['x-request-id']), /\S/);
    assert.equal(r.headers['ratelimit-limit'], '3');
    assert.equal(r.headers['ratelimit-remaining'], remaining);
    assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
  }
  assert.equal((await send(port, `${API}/tools/%E0%A4%A`, from)).status, 400);
  const refused = await send(port, `${API}/tools/%E0%A4%A`, from);
  assert.equal(refused.status, 429, 'the fourth request in the window is refused, whatever its URL');
  assert.equal(refused.headers['cache-control'], 'no-store');
});

test('refusals › two clients get the same cacheable answer except for the documented per-client headers', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '50' } });
  const paths = [`${API}/tools?per_page=2`, `${API}/tools/quizzy`, `${API}/tools/nope`, `${API}/tools?page=0`, `${API}/collections`];
  for (const url of paths) {
    // One client has spent part of its budget; the other has not.
    for (let i = 0; i < 5; i++) await app.inject({ url, remoteAddress: '192.0.2.1' });
    const a = await app.inject({ url, remoteAddress: '192.0.2.1' });
    const b = await app.inject({ url, remoteAddress: '198.51.100.9' });
    assert.match(String(a.headers['cache-control']), /^public/, url);
    const differing = Object.keys({ ...a.headers, ...b.headers }).filter((k) => k !== 'date' && String(a.headers[k]) !== String(b.headers[k]));
    assert.ok(differing.includes('ratelimit-remaining') && differing.includes('x-request-id'), `${url}: the per-client headers are there`);
    for (const name of differing) assert.ok((PER_CLIENT_HEADERS as readonly string[]).includes(name), `${url}: ${name} differs between clients but is not in the list a CDN is told to drop`);
    assert.ok(a.rawPayload.equals(b.rawPayload), `${url}: same body`);
  }
});

test('refusals › an HTTP/1.1 request without Host, or any request with two Host lines, is a 400 problem with CORS (RFC 9112 §3.2)', async (t) => {
  const { port, app } = await listening(t, { env: { RATE_LIMIT_MAX: '20' } });
  const url = `${API}/categories`;
  // Remembered by the fast path first: a refused Host must not be answered from memory either.
  assert.equal((await send(port, url)).status, 200);
  assert.equal((await send(port, url)).status, 200);
  const cases: Array<[string, string]> = [
    [`GET ${url} HTTP/1.1\r\n\r\n`, 'no Host'],
    [`GET ${url} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n`, 'two Host lines'],
    [`GET ${url} HTTP/1.1\r\nHost: x\r\nhost: x\r\n\r\n`, 'two Host lines, same value'],
    [`GET ${url} HTTP/1.0\r\nHost: a.example\r\nHost: b.example\r\n\r\n`, 'two Host lines in HTTP/1.0'],
    [`GET ${API}/tools/nope HTTP/1.1\r\n\r\n`, 'no Host, unknown tool'],
    [`OPTIONS ${url} HTTP/1.1\r\nOrigin: https://app.example\r\n\r\n`, 'no Host, preflight'],
  ];
  for (const [text, label] of cases) {
    const r = await sendRaw(port, text);
    assertProblem(r, 400, label);
    const body = JSON.parse(r.body.toString()) as { type: string; detail: string };
    assert.equal(body.type, 'http://localhost/problems/bad-request', label);
    assert.match(body.detail, /Host/, label);
  }
  const english = await sendRaw(port, `GET ${url} HTTP/1.1\r\nAccept-Language: en\r\n\r\n`);
  assert.match(JSON.parse(english.body.toString()).detail, /exactly one Host header/);
  // Counted like any request.
  assert.match(String(english.headers['ratelimit-remaining']), /^\d+$/);
  // HTTP/1.0 may leave Host out.
  const old = await sendRaw(port, `GET ${url} HTTP/1.0\r\n\r\n`);
  assert.equal(old.status, 200);
  assert.equal((await app.inject({ url })).statusCode, 200, 'inject (which always sends one Host) still works');
});
