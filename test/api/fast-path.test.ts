/**
 * The fast path (src/http/fast-path.ts) runs only on real sockets, so these tests listen.
 * The oracle is the Fastify path itself: `app.inject` never goes through the fast path, so
 * a repeated request over a socket must get what inject gets for the same request, header
 * for header and byte for byte. A hook counting Fastify's requests shows which path ran.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { importContent } from '../../src/content/import-content.js';
import { RedisLimiter } from '../../src/rate-limit/redis-limiter.js';
import { SlidingWindowLimiter } from '../../src/rate-limit/sliding-window-limiter.js';
import { API, buildTestApp, type TestAppOptions } from '../helpers/build-app.js';
import { fixtureDataset, writeContent } from '../helpers/fixture.js';
import { send, type SendOptions, type SocketResponse } from '../helpers/http.js';
import { httpRevision } from '../../src/web/revision-state.js';
import { REDIS_URL, skipWithoutRedis } from '../helpers/services.js';

/** Headers that differ from one response to the next, or that only a socket adds. */
const VOLATILE = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive', 'transfer-encoding']);
const stable = (h: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k)).sort().map(([k, v]) => [k, String(v)]));

/**
 * A listening app whose Fastify answers are counted (the fast path bypasses the count). On
 * `onSend`, which every Fastify answer passes, including those the app's own `onRequest`
 * sends (a 405, a refused Host) before a hook added here would run.
 */
async function listening(t: Parameters<typeof buildTestApp>[0], options: TestAppOptions = {}) {
  const seen = { fastify: 0 };
  const built = await buildTestApp(t, {
    ...options,
    routes: (app) => {
      // onSend: every answer Fastify writes, those refused in an onRequest hook (a 405 before
      // its body is read) included; the fast path writes its own without Fastify.
      app.addHook('onSend', (_request, _reply, payload, done) => {
        seen.fastify++;
        done(null, payload);
      });
    },
  });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...built, seen, port: (built.app.server.address() as AddressInfo).port };
}

test('fast path › a repeated request gets what Fastify sends, and Fastify does not see it', async (t) => {
  const { app, port, seen } = await listening(t);
  const host = `127.0.0.1:${port}`;
  const cases: Array<[string, SendOptions]> = [
    [`${API}/tools`, {}],
    [`${API}/tools?q=quiz&per_page=2`, {}],
    [`${API}/tools?per_page=2&q=quiz`, {}],
    [`${API}/tools/quizzy`, {}],
    [`${API}/tools/quizzy/`, {}],
    [`${API}/tools/ecrire-plus`, {}],
    [`${API}/collections`, {}],
    [`${API}/collections/creer-un-quiz`, {}],
    [`${API}/categories`, {}],
    [`${API}/openapi.json`, {}],
    [`${API}/tools`, { headers: { 'accept-encoding': 'br' } }],
    [`${API}/tools`, { headers: { 'accept-encoding': 'gzip, deflate' } }],
    [`${API}/tools`, { method: 'HEAD' }],
    [`${API}/tools/quizzy`, { method: 'HEAD' }],
    [`${API}/tools?updated_since=2026-02-01T09:00:00%2B01:00&facets=pricing`, {}],
    [`${API}/changes?since=2026-01-01T00:00:00Z`, {}],
    [`${API}/feed.atom`, {}],
    [`${API}/feed.json`, { headers: { 'accept-encoding': 'gzip' } }],
    [`${API}/export/tools.csv`, { headers: { 'accept-encoding': 'br' } }],
    [`${API}/export/tools.ndjson`, { method: 'HEAD' }],
    [`${API}/datapackage.json`, {}],
  ];
  for (const [path, options] of cases) {
    const label = `${options.method ?? 'GET'} ${path} ${JSON.stringify(options.headers ?? {})}`;
    await send(port, path, options); // answered by Fastify, then remembered
    const before = seen.fastify;
    const fast = await send(port, path, options);
    assert.equal(seen.fastify, before, `${label}: answered without Fastify`);
    const oracle = await app.inject({ method: (options.method ?? 'GET') as 'GET', url: path, headers: { ...options.headers, host } });
    assert.equal(fast.status, oracle.statusCode, label);
    assert.deepEqual(stable(fast.headers), stable(oracle.headers), label);
    assert.ok(fast.body.equals(oracle.rawPayload), label);
    assert.match(String(fast.headers['x-request-id']), /\S/, 'every response has a request id');
    assert.match(String(fast.headers['ratelimit-remaining']), /^\d+$/);

    if (fast.status === 200) {
      const beforeRevalidation = seen.fastify;
      const validators = { ...options.headers, 'if-none-match': String(fast.headers.etag) };
      const notModified = await send(port, path, { ...options, headers: validators });
      assert.equal(seen.fastify, beforeRevalidation, `${label}: the 304 too`);
      const oracle304 = await app.inject({ method: (options.method ?? 'GET') as 'GET', url: path, headers: { ...validators, host } });
      assert.equal(notModified.status, 304, label);
      assert.equal(oracle304.statusCode, 304, label);
      assert.deepEqual(stable(notModified.headers), stable(oracle304.headers), `${label} (304)`);
      assert.equal(notModified.body.length, 0);
    }
  }
});

test('fast path › a list never asked before is built without Fastify, with the bytes Fastify sends; a refused one is left to Fastify', async (t) => {
  const { app, port, seen } = await listening(t, { env: { TRUST_PROXY: '127.0.0.1' } });
  const host = `127.0.0.1:${port}`;
  const proxied = { host: 'internal:8080', 'x-forwarded-host': 'api.example.org', 'x-forwarded-proto': 'https' };
  const built: Array<[string, SendOptions]> = [
    [`${API}/tools?q=quizz%20gratuit`, {}],
    [`${API}/tools?q=je+cherche+un+outil+pour+la+SVT+au+lyc%C3%A9e&per_page=3`, {}],
    [`${API}/tools?q=carte&q2=ignored&pricing=FREE,freemium&has_education_pricing=true`, {}],
    [`${API}/tools?level=6e&subject=maths&sort=-updated_at&facets=pricing`, {}],
    [`${API}/tools?`, {}],
    [`${API}/tools?q=`, {}],
    [`${API}/tools?page=99`, {}],
    [`${API}/tools?q=%E2%9C%93%20%F0%9F%98%80`, {}],
    [`${API}/tools?q=ecrire&per_page=1`, { method: 'HEAD' }],
    [`${API}/tools?q=ecrire&per_page=2`, { headers: { 'accept-encoding': 'br' } }],
    [`${API}/tools?q=ecrire&per_page=4`, { headers: proxied }],
    [`${API}/tools?q=ecrire&per_page=4`, { headers: proxied, localAddress: '127.0.0.2' }],
  ];
  for (const [path, options] of built) {
    const label = `${options.method ?? 'GET'} ${path} ${JSON.stringify(options.headers ?? {})}`;
    const before = seen.fastify;
    const fast = await send(port, path, options);
    assert.equal(seen.fastify, before, `${label}: built without Fastify`);
    const oracle = await app.inject({
      method: (options.method ?? 'GET') as 'GET', url: path, headers: { host, ...options.headers }, remoteAddress: options.localAddress ?? '127.0.0.1',
    });
    assert.equal(fast.status, oracle.statusCode, label);
    assert.deepEqual(stable(fast.headers), stable(oracle.headers), label);
    assert.ok(fast.body.equals(oracle.rawPayload), label);
  }
  // A bad parameter, a repeated one, a path not written as the route's: Fastify answers.
  const refused: Array<[string, number]> = [
    [`${API}/tools?per_page=0`, 400],
    [`${API}/tools?q=a&q=b`, 400],
    [`${API}/tools?level=cm7`, 400],
    [`${API}/tools?q=${'x'.repeat(201)}`, 400],
    [`${API}/tool%73?q=once`, 200],
    [`${API}/tools/?q=once`, 200],
  ];
  for (const [path, status] of refused) {
    const before = seen.fastify;
    const answer = await send(port, path);
    assert.equal(answer.status, status, path);
    assert.equal(seen.fastify, before + 1, `${path}: answered by Fastify`);
    const oracle = await app.inject({ method: 'GET', url: path, headers: { host } });
    assert.equal(answer.status, oracle.statusCode, path);
    assert.ok(answer.body.equals(oracle.rawPayload), path);
  }
});

test('fast path › a catalogue search never asked before is built without Fastify, with the page Fastify sends; an error page is left to Fastify', async (t) => {
  const { app, port, seen } = await listening(t);
  const host = `127.0.0.1:${port}`;
  await send(port, '/'); // the pages' assets are read at the first page
  const built: Array<[string, SendOptions]> = [
    ['/outils?q=quizz%20gratuit', {}],
    ['/outils?q=quiz%20sans%20compte%20pour%20mes%20CM2', {}],
    ['/outils?q=carte&level=college&sort=name', {}],
    ['/outils?q=zzzqqq%20ulis', {}],
    ['/outils?q=ecrire', { method: 'HEAD' }],
    ['/outils?q=ecrire&pricing=free', { headers: { 'accept-encoding': 'gzip' } }],
  ];
  for (const [path, options] of built) {
    const label = `${options.method ?? 'GET'} ${path} ${JSON.stringify(options.headers ?? {})}`;
    const before = seen.fastify;
    const fast = await send(port, path, options);
    assert.equal(seen.fastify, before, `${label}: built without Fastify`);
    assert.equal(fast.status, 200, label);
    const oracle = await app.inject({ method: (options.method ?? 'GET') as 'GET', url: path, headers: { host, ...options.headers } });
    assert.deepEqual(stable(fast.headers), stable(oracle.headers), label);
    assert.ok(fast.body.equals(oracle.rawPayload), label);
    if (options.method !== 'HEAD' && options.headers === undefined) {
      assert.match(fast.body.toString('utf8'), /<\/html>\s*$/, `${label}: a whole page`);
      assert.equal(fast.body.indexOf(0), -1, `${label}: no mark of where the cards go`);
    }
  }
  // A page past the last, a bad parameter: the route answers, and nothing is kept.
  for (const [path, status] of [['/outils?q=quiz&page=99', 404], ['/outils?q=quiz&level=cm7', 400]] as const) {
    for (let i = 0; i < 2; i++) {
      const before = seen.fastify;
      const answer = await send(port, path);
      assert.equal(answer.status, status, path);
      assert.equal(seen.fastify, before + 1, `${path}: answered by Fastify`);
    }
  }
});

test('fast path › requests are counted on both paths, and the refused ones get a proper 429', async (t) => {
  const { port } = await listening(t, { env: { RATE_LIMIT_MAX: '5' } });
  const statuses: number[] = [];
  let last: SocketResponse | undefined;
  for (let i = 0; i < 7; i++) {
    last = await send(port, `${API}/categories`, { localAddress: '127.0.0.9' });
    statuses.push(last.status);
    if (last.status === 200) assert.equal(last.headers['ratelimit-remaining'], String(4 - i));
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  assert.equal(last!.headers['cache-control'], 'no-store');
  assert.equal(last!.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.ok(Number(last!.headers['retry-after']) >= 1);
  assert.equal((await send(port, `${API}/categories`, { localAddress: '127.0.0.10' })).status, 200, 'other clients unaffected');
});

test('fast path › refusals are answered without Fastify, with the bytes Fastify would send', async (t) => {
  const { app, port, seen } = await listening(t, { env: { RATE_LIMIT_MAX: '2', TRUST_PROXY: '127.0.0.1' } });
  const host = `127.0.0.1:${port}`;
  const from = { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.5' } };
  for (let i = 0; i < 2; i++) assert.equal((await send(port, `${API}/categories`, from)).status, 200);
  // Remembered or never seen, GET or HEAD: the 429 is written before Fastify.
  const before = seen.fastify;
  const refusals = [];
  for (const [path, method] of [[`${API}/categories`, 'GET'], [`${API}/tools?q=never-seen-${Date.now()}`, 'GET'], [`${API}/tools/quizzy`, 'HEAD']] as const) {
    refusals.push([path, method, await send(port, path, { ...from, method })] as const);
  }
  assert.equal(seen.fastify, before, 'Fastify saw none of the refused requests');
  // The oracle: the same client, refused by the Fastify path (inject never takes the fast path).
  const VOLATILE_429 = new Set([...VOLATILE, 'retry-after', 'ratelimit-reset']);
  for (const [path, method, fast] of refusals) {
    const oracle = await app.inject({ method, url: path, headers: { host, 'x-forwarded-for': '203.0.113.5' } });
    assert.equal(fast.status, 429);
    assert.equal(oracle.statusCode, 429);
    const strip = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(stable(h)).filter(([k]) => !VOLATILE_429.has(k)));
    assert.deepEqual(strip(fast.headers), strip(oracle.headers), `${method} ${path}`);
    // The seconds to wait may tick between the two answers.
    const body = (text: string) => text.replace(/retry in \d+ seconds/, 'retry in N seconds');
    if (method === 'GET') assert.equal(body(fast.body.toString()), body(oracle.body), path);
    else assert.equal(fast.body.length, 0);
  }
  // An allowed request handed to Fastify is counted once, not twice.
  const fresh = { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.6' } };
  const first = await send(port, `${API}/tools?q=once-${Date.now()}`, fresh);
  assert.equal(first.status, 200);
  assert.equal(first.headers['ratelimit-remaining'], '1');
});

test('fast path › never serves the bytes of an older revision', async (t) => {
  const { port, store, directory, contentDir } = await listening(t);
  const before = await send(port, `${API}/tools/quizzy`);
  await send(port, `${API}/tools/quizzy`);
  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'quizzy')!.name = 'Quizzy Révisé';
  await writeContent(contentDir, dataset);
  assert.ok((await importContent(store, contentDir)).ok);
  assert.ok(await directory.refresh());
  for (let i = 0; i < 2; i++) {
    const after = await send(port, `${API}/tools/quizzy`);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.match(after.body.toString(), /Quizzy Révisé/);
    const stale = await send(port, `${API}/tools/quizzy`, { headers: { 'if-none-match': String(before.headers.etag) } });
    assert.equal(stale.status, 200, 'an old ETag no longer matches');
  }
});

test('fast path › each Host gets its own links', async (t) => {
  const { port } = await listening(t);
  for (let i = 0; i < 2; i++) {
    const a = await send(port, `${API}/tools/quizzy`, { headers: { host: 'a.example.org' } });
    const b = await send(port, `${API}/tools/quizzy`, { headers: { host: 'b.example.org' } });
    assert.match(a.body.toString(), /"http:\/\/a\.example\.org\/api/);
    assert.match(b.body.toString(), /"http:\/\/b\.example\.org\/api/);
  }
});

test('fast path › X-Forwarded-* count only from a trusted proxy, for links and for the limit', async (t) => {
  const { port } = await listening(t, { env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_MAX: '3' } });
  const forwarded = (client: string) => ({ host: 'internal:8080', 'x-forwarded-host': 'api.example.org', 'x-forwarded-proto': 'https', 'x-forwarded-for': client });
  for (let i = 0; i < 2; i++) {
    const viaProxy = await send(port, `${API}/tools/quizzy`, { headers: forwarded(`203.0.113.${i}`) });
    assert.match(viaProxy.body.toString(), /"https:\/\/api\.example\.org\/api/);
    const direct = await send(port, `${API}/tools/quizzy`, { headers: forwarded('203.0.113.50'), localAddress: '127.0.0.2' });
    assert.match(direct.body.toString(), /"http:\/\/internal:8080\/api/, 'an untrusted peer cannot choose the links');
  }
  // Through the trusted proxy, each forwarded client has its own count.
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await send(port, `${API}/tools/quizzy`, { headers: forwarded('203.0.113.7') })).status);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  assert.equal((await send(port, `${API}/tools/quizzy`, { headers: forwarded('203.0.113.8') })).status, 200);
});

test('fast path › left to Fastify: requests with a body, other methods, request logging; both paths close while draining', async (t) => {
  const lifecycle = { shuttingDown: false };
  const { port, seen } = await listening(t, { lifecycle });
  const path = `${API}/categories`;
  await send(port, path);
  let before = seen.fastify;
  await send(port, path);
  assert.equal(seen.fastify, before);

  const withBody = await send(port, path, { body: 'x', headers: { 'content-type': 'text/plain', 'content-length': '1' } });
  assert.equal(seen.fastify, before + 1, 'a GET with a body goes to Fastify');
  assert.equal(withBody.status, 200);
  const post = await send(port, path, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(seen.fastify, before + 2);

  lifecycle.shuttingDown = true;
  before = seen.fastify;
  const draining = await send(port, path);
  assert.equal(seen.fastify, before, 'still the fast path');
  assert.equal(draining.headers.connection, 'close', 'while draining, every answer closes its connection');
  const drainingFromFastify = await send(port, `${path}/`);
  assert.equal(seen.fastify, before + 1);
  assert.equal(drainingFromFastify.headers.connection, 'close');

  const logged = await listening(t, { env: { LOG_REQUESTS: '1' } });
  await send(logged.port, path);
  await send(logged.port, path);
  assert.equal(logged.seen.fastify, 2, 'with a log line per request, every request goes through Fastify');
});

describe('fast path with the shared limiter', { skip: skipWithoutRedis }, () => {
  test('two instances sharing Redis allow 10 in all over sockets; the 11th is 429 on either', async (t) => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const limiter = () => RedisLimiter.connect(REDIS_URL!, {
      max: 10, windowMs: 60_000, keyPrefix: prefix,
      fallback: new SlidingWindowLimiter({ max: 10, windowMs: 60_000 }), log: { warn: () => {}, info: () => {}, error: () => {} },
    });
    const a = await listening(t, { limiter: await limiter(), env: { RATE_LIMIT_MAX: '10' } });
    const b = await listening(t, { limiter: await limiter(), env: { RATE_LIMIT_MAX: '10' } });
    const path = `${API}/tools/quizzy`;
    for (let i = 0; i < 10; i++) {
      const res = await send(i % 2 ? a.port : b.port, path, { localAddress: '127.0.0.21' });
      assert.equal(res.status, 200, `request ${i + 1}`);
      assert.equal(res.headers['ratelimit-remaining'], String(9 - i));
    }
    assert.ok(a.seen.fastify + b.seen.fastify < 10, 'repeated requests took the fast path');
    for (const port of [a.port, b.port]) {
      const refused = await send(port, path, { localAddress: '127.0.0.21' });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
    }
    assert.equal((await send(a.port, path, { localAddress: '127.0.0.22' })).status, 200, 'another client');
  });
});

test('fast path › a search is kept from its second request: one asked once is built for itself, and its bytes stay the same', async (t) => {
  const { port, directory } = await listening(t);
  const revision = () => httpRevision(directory.current);
  const cases = [`${API}/tools?q=quizz%20de%20g%C3%A9ographie&per_page=7`, '/outils?q=carte%20mentale%20coll%C3%A8ge'];
  for (const path of cases) {
    const kept = revision().responses.size;
    const remembered = revision().remembered.size;
    const first = await send(port, path);
    assert.equal(first.status, 200, path);
    assert.equal(revision().responses.size, kept, `${path}: asked once, not kept`);
    assert.equal(revision().remembered.size, remembered, `${path}: asked once, not remembered`);
    const second = await send(port, path);
    assert.equal(revision().responses.size, kept + 1, `${path}: asked twice, kept`);
    assert.equal(revision().remembered.size, remembered + 1, `${path}: asked twice, remembered`);
    const third = await send(port, path);
    for (const answer of [second, third]) {
      assert.equal(answer.headers.etag, first.headers.etag, path);
      assert.ok(answer.body.equals(first.body), path);
    }
  }
  // A page's error is never kept, however often it is asked.
  const before = revision().responses.size;
  for (let i = 0; i < 3; i++) assert.equal((await send(port, '/outils?q=quiz&page=999')).status, 404);
  assert.equal(revision().responses.size, before);
});
