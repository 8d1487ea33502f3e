/**
 * Issue 17, items 1–3: what a client's Host and X-Forwarded-* headers may change. The
 * links of a cacheable answer depend on them, so the fast path (which remembers answers
 * per request) must key on exactly what the links are built from; X-Forwarded-* count only
 * from a trusted proxy, only `http`/`https` are protocols, and X-Forwarded-For is keyed by
 * the address it names, whatever its spelling.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import fc from 'fast-check';
import { ConfigError, loadConfig, parseTrustProxy } from '../../src/config.js';
import { clientKey } from '../../src/rate-limit/client-key.js';
import { API, buildTestApp, type TestAppOptions } from '../helpers/build-app.js';
import { send, sendRaw } from '../helpers/http.js';
import { httpRevision } from '../../src/web/revision-state.js';

const VOLATILE = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
const stable = (h: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k)).sort().map(([k, v]) => [k, String(v)]));

async function listening(t: Parameters<typeof buildTestApp>[0], options: TestAppOptions = {}) {
  const built = await buildTestApp(t, options);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...built, port: (built.app.server.address() as AddressInfo).port };
}

test('forwarded headers › `X-Forwarded-Host: undefined` from one client does not change the links others get', async (t) => {
  const { port } = await listening(t, { env: { TRUST_PROXY: '127.0.0.1' } });
  const path = `${API}/tools?per_page=1`;
  /** The origin of the answer's links. */
  const self = (r: { body: Buffer }) => new URL((JSON.parse(r.body.toString()) as { links: { self: string } }).links.self).origin;
  // The two requests of the report, each twice so the second is answered from memory.
  for (let i = 0; i < 2; i++) assert.match(self(await send(port, path, { headers: { 'x-forwarded-host': 'undefined' } })), /^http:\/\/undefined$/);
  for (let i = 0; i < 2; i++) assert.equal(self(await send(port, path, { headers: { host: 'api.example.org' } })), 'http://api.example.org');
  for (let i = 0; i < 2; i++) {
    const forged = await send(port, path, { headers: { host: 'api.example.org', 'x-forwarded-proto': 'undefined' } });
    assert.equal(self(forged), 'http://api.example.org', 'a protocol that is not http or https is ignored');
  }
  assert.equal(self(await send(port, path, { headers: { host: 'api.example.org', 'x-forwarded-proto': 'HTTPS' } })), 'https://api.example.org');
  // HTTP/1.0 without Host, and `Host: undefined`, are two different bases.
  const noHost = await sendRaw(port, `GET ${path} HTTP/1.0\r\n\r\n`);
  const noHostAgain = await sendRaw(port, `GET ${path} HTTP/1.0\r\n\r\n`);
  assert.equal(self(noHostAgain), self(noHost));
  assert.equal(self(noHost), 'http://localhost');
  for (let i = 0; i < 2; i++) assert.equal(self(await sendRaw(port, `GET ${path} HTTP/1.0\r\nHost: undefined\r\n\r\n`)), 'http://undefined');
  assert.equal(self(await sendRaw(port, `GET ${path} HTTP/1.0\r\n\r\n`)), 'http://localhost');
});

/** Header values a client (or a misconfigured proxy) may send, absence included. */
const HOSTS = [undefined, '', 'undefined', 'api.example.org', 'API.Example.org:8443', '[::1]:3000', 'evil.example/path', 'a b', 'x'.repeat(300)];
const FORWARDED_HOSTS = [undefined, '', 'undefined', 'cdn.example.net', 'first.example, last.example', 'last.example,', 'evil.example/x'];
const FORWARDED_PROTOS = [undefined, '', 'undefined', 'http', 'https', 'HTTPS', 'ftp', 'http, https', 'https,'];
const PATHS = [`${API}/tools?per_page=2`, `${API}/tools/quizzy`, `${API}/collections`, `${API}/categories`, `${API}/tools?page=99`, `${API}/nowhere`];

test('forwarded headers › for random header sets, the fast path answers byte for byte what Fastify alone answers', async (t) => {
  const env = { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_MAX: '0' };
  const fast = await listening(t, { env });
  // The oracle: the same content with the fast path off (it never runs with request logging).
  const oracle = await listening(t, { env: { ...env, LOG_REQUESTS: '1' } });
  const request = fc.record({
    http10: fc.boolean(),
    host: fc.constantFrom(...HOSTS),
    forwardedHost: fc.constantFrom(...FORWARDED_HOSTS),
    forwardedProto: fc.constantFrom(...FORWARDED_PROTOS),
    path: fc.constantFrom(...PATHS),
    // 127.0.0.1 is the trusted proxy; 127.0.0.2 is a client whose X-Forwarded-* count for nothing.
    from: fc.constantFrom('127.0.0.1', '127.0.0.2'),
    method: fc.constantFrom('GET', 'HEAD'),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 6 }), async (requests) => {
      for (const r of requests) {
        // HTTP/1.1 requires a Host (Node answers 400 itself): without one, HTTP/1.0.
        const version = r.http10 || r.host === undefined ? 'HTTP/1.0' : 'HTTP/1.1';
        const lines = [`${r.method} ${r.path} ${version}`, 'Connection: close'];
        if (r.host !== undefined) lines.push(`Host: ${r.host}`);
        if (r.forwardedHost !== undefined) lines.push(`X-Forwarded-Host: ${r.forwardedHost}`);
        if (r.forwardedProto !== undefined) lines.push(`X-Forwarded-Proto: ${r.forwardedProto}`);
        const raw = `${lines.join('\r\n')}\r\n\r\n`;
        // Twice on the fast-path server: the second is answered from what was remembered.
        await sendRaw(fast.port, raw, { localAddress: r.from });
        const got = await sendRaw(fast.port, raw, { localAddress: r.from });
        const want = await sendRaw(oracle.port, raw, { localAddress: r.from });
        const label = raw.replaceAll('\r\n', ' | ');
        assert.equal(got.status, want.status, label);
        assert.deepEqual(stable(got.headers), stable(want.headers), label);
        assert.ok(got.body.equals(want.body), `${label}\n got: ${got.body.toString().slice(0, 300)}\nwant: ${want.body.toString().slice(0, 300)}`);
      }
    }),
    { numRuns: 120 },
  );
  assert.ok(httpRevision(fast.directory.current).remembered.size > 10, 'the fast path did remember answers');
});

test('forwarded headers › TRUST_PROXY refuses ranges that trust public address space wholesale, naming the variable', () => {
  for (const value of ['0.0.0.0/1,128.0.0.0/1', '0.0.0.0/0', '::/0', '::ffff:0:0/96', '2000::/3', '1.0.0.0/8,2.0.0.0/8', 'true', '3']) {
    assert.throws(() => parseTrustProxy(value), (err: unknown) => err instanceof ConfigError && err.variable === 'TRUST_PROXY' && /TRUST_PROXY/.test(err.message), value);
    assert.throws(() => loadConfig({ TRUST_PROXY: value }), ConfigError, value);
  }
  // What deployments name: private networks whole, a CDN's published ranges, loopback.
  for (const value of ['10.0.0.0/8,172.16.0.0/12,192.168.0.0/16', 'loopback,uniquelocal', '104.16.0.0/13,172.64.0.0/13,162.158.0.0/15,2400:cb00::/32,2a06:98c0::/29', '203.0.113.7', 'fc00::/7']) {
    assert.deepEqual(parseTrustProxy(value), value.split(','), value);
  }
});

test('forwarded headers › one client address is one key, whatever its spelling; what is not an address is the peer’s', () => {
  const spellings = ['192.0.2.1', '192.0.2.1:443', '[::ffff:192.0.2.1]', '[::ffff:192.0.2.1]:80', '::ffff:c000:201', ' 192.0.2.1', '3221225985', '0xc0.0.2.1', '192.0.513'];
  for (const s of spellings) assert.equal(clientKey(s, '10.0.0.1'), '192.0.2.1', s);
  assert.equal(clientKey('[2001:db8:1:2::1]:8080', '10.0.0.1'), clientKey('2001:db8:1:2::ff'));
  for (const s of ['unknown', 'nobody', '', '999.1.1.1', '1.2.3.4.5', 'fe80::1::2', '<script>']) assert.equal(clientKey(s, '10.0.0.1'), '10.0.0.1', s);
});

test('forwarded headers › behind a trusted proxy, spellings of one address share one budget; garbage shares the proxy’s', async (t) => {
  const { app } = await buildTestApp(t, { env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_MAX: '3' } });
  const statuses = [];
  for (const xff of ['198.51.100.7', '198.51.100.7:1234', '[::ffff:198.51.100.7]:9', '198.51.100.07', '3325256711']) {
    statuses.push((await app.inject({ url: `${API}/categories`, headers: { 'x-forwarded-for': xff } })).statusCode);
  }
  // 198.51.100.07 has a leading zero: ipaddr reads it as octal 7, the same address.
  assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  const garbage = [];
  for (let i = 0; i < 5; i++) garbage.push((await app.inject({ url: `${API}/categories`, headers: { 'x-forwarded-for': `not-an-address-${i}` } })).statusCode);
  assert.deepEqual(garbage, [200, 200, 200, 429, 429], 'forged text does not mint a budget per request');
});
