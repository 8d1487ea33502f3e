/**
 * The fast path (src/http/fast-path.ts) only runs on real sockets, so these tests listen.
 * A repeated request must get what the first one got, byte for byte and header for header.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { importContent } from '../../src/content/import-content.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset, writeContent } from '../helpers/fixture.js';

interface Res { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

function send(port: number, path: string, options: { method?: string; headers?: Record<string, string>; localAddress?: string } = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const VOLATILE = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive']);
const stable = (h: Res['headers']) => Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k)).sort());

async function listening(t: Parameters<typeof buildTestApp>[0], env: Record<string, string> = {}) {
  const built = await buildTestApp(t, { env });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...built, port: (built.app.server.address() as AddressInfo).port };
}

test('fast path › repeated requests get the same status, headers and bytes as the first', async (t) => {
  const { port } = await listening(t);
  const cases: Array<[string, { method?: string; headers?: Record<string, string> }]> = [
    [`${API}/tools`, {}],
    [`${API}/tools?q=quiz&per_page=2`, {}],
    [`${API}/tools/quizzy`, {}],
    [`${API}/tools/ecrire-plus`, {}],
    [`${API}/collections`, {}],
    [`${API}/collections/creer-un-quiz`, {}],
    [`${API}/categories`, {}],
    [`${API}/tools`, { headers: { 'accept-encoding': 'br' } }],
    [`${API}/tools`, { headers: { 'accept-encoding': 'gzip' } }],
    [`${API}/tools`, { method: 'HEAD' }],
  ];
  for (const [path, options] of cases) {
    const first = await send(port, path, options);
    for (let i = 0; i < 2; i++) {
      const again = await send(port, path, options);
      assert.equal(again.status, first.status, path);
      assert.deepEqual(stable(again.headers), stable(first.headers), `${path} ${JSON.stringify(options)}`);
      assert.ok(again.body.equals(first.body), path);
      assert.ok(again.headers['x-request-id'], 'every response has a request id');
    }
    if (first.status === 200) {
      const notModified = await send(port, path, { ...options, headers: { ...options.headers, 'if-none-match': first.headers.etag as string } });
      assert.equal(notModified.status, 304, path);
      assert.equal(notModified.body.length, 0);
      assert.equal(notModified.headers.etag, first.headers.etag);
      assert.equal(notModified.headers['cache-control'], 'public, max-age=300');
      assert.equal(notModified.headers['access-control-allow-origin'], '*');
    }
  }
});

test('fast path › requests count against the limit, and the 61st is still a proper 429', async (t) => {
  const { port } = await listening(t, { RATE_LIMIT_MAX: '5' });
  const statuses: number[] = [];
  let last: Res | undefined;
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

test('fast path › never serves bytes of an older revision', async (t) => {
  const { port, store, directory, contentDir } = await listening(t);
  const before = await send(port, `${API}/tools/quizzy`);
  await send(port, `${API}/tools/quizzy`);
  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'quizzy')!.name = 'Quizzy Révisé';
  await writeContent(contentDir, dataset);
  assert.ok((await importContent(store, contentDir)).ok);
  await directory.refresh();
  for (let i = 0; i < 2; i++) {
    const after = await send(port, `${API}/tools/quizzy`);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.match(after.body.toString(), /Quizzy Révisé/);
  }
});

test('fast path › a different Host gets its own links', async (t) => {
  const { port } = await listening(t);
  const a = await send(port, `${API}/tools/quizzy`, { headers: { host: 'a.example.org' } });
  await send(port, `${API}/tools/quizzy`, { headers: { host: 'a.example.org' } });
  const b = await send(port, `${API}/tools/quizzy`, { headers: { host: 'b.example.org' } });
  assert.match(a.body.toString(), /http:\/\/a\.example\.org\/api/);
  assert.match(b.body.toString(), /http:\/\/b\.example\.org\/api/);
});
