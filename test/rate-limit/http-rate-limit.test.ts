import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { API, buildTestApp } from '../helpers/build-app.js';
import { send } from '../helpers/http.js';

const LIMITED = { RATE_LIMIT_MAX: '60', RATE_LIMIT_WINDOW_S: '60' };

test('rate limit › the 61st request in a minute is a 429 problem, no-store, with Retry-After and CORS', async (t) => {
  const clock = { now: 1_000_000 };
  const { app } = await buildTestApp(t, { env: LIMITED, now: () => clock.now });
  for (let i = 1; i <= 60; i++) {
    const res = await app.inject({ url: i % 2 ? `${API}/tools` : `${API}/does-not-exist` });
    assert.ok(res.statusCode !== 429, `request ${i}`);
    assert.equal(res.headers['ratelimit-limit'], '60');
    assert.equal(res.headers['ratelimit-remaining'], String(60 - i));
  }
  clock.now += 59_900;
  const refused = await app.inject({ url: `${API}/tools` });
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.headers['cache-control'], 'no-store');
  assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(refused.headers['access-control-allow-origin'], '*');
  assert.equal(refused.headers['x-content-type-options'], 'nosniff');
  assert.equal(refused.headers['retry-after'], '1');
  assert.equal(refused.headers['ratelimit-remaining'], '0');
  assert.equal(refused.headers['ratelimit-reset'], '1');
  assert.equal(refused.json().status, 429);
  assert.match(refused.json().type, /rate-limited$/);
  clock.now += 100;
  assert.equal((await app.inject({ url: `${API}/tools` })).statusCode, 200);
});

test('rate limit › 404s, HEAD and 400s count; health checks and preflights do not', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '3' } });
  assert.equal((await app.inject({ url: '/nope' })).statusCode, 404);
  assert.equal((await app.inject({ method: 'HEAD', url: `${API}/tools` })).statusCode, 200);
  assert.equal((await app.inject({ url: `${API}/tools?page=x` })).statusCode, 400);
  for (let i = 0; i < 5; i++) {
    assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'OPTIONS', url: `${API}/tools` })).statusCode, 204);
  }
  assert.equal((await app.inject({ url: `${API}/tools` })).statusCode, 429);
});

test('rate limit › X-Forwarded-For is ignored without trusted proxies: 10,000 spoofed requests, at most 60 pass', async (t) => {
  const { app } = await buildTestApp(t, { env: LIMITED });
  let passed = 0;
  for (let i = 0; i < 10_000; i++) {
    const res = await app.inject({ url: `${API}/categories`, remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': `${i % 256}.${(i >> 8) % 256}.1.${i % 200}` } });
    if (res.statusCode === 200 || res.statusCode === 304) passed++;
  }
  assert.equal(passed, 60);
});

test('rate limit › a trusted proxy’s X-Forwarded-For is believed; an untrusted one is not', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '2', TRUST_PROXY: '10.0.0.0/8' } });
  const from = (remoteAddress: string, xff: string) => app.inject({ url: `${API}/categories`, remoteAddress, headers: { 'x-forwarded-for': xff } });
  // Through the proxy, two clients have two budgets.
  for (let i = 0; i < 2; i++) assert.equal((await from('10.1.2.3', '198.51.100.1')).statusCode, 200);
  assert.equal((await from('10.1.2.3', '198.51.100.1')).statusCode, 429);
  assert.equal((await from('10.1.2.3', '198.51.100.2')).statusCode, 200);
  // A client that is not the proxy cannot choose its own address.
  for (let i = 0; i < 2; i++) assert.equal((await from('198.51.100.7', `192.0.2.${i}`)).statusCode, 200);
  assert.equal((await from('198.51.100.7', '192.0.2.99')).statusCode, 429);
});

test('rate limit › IPv4-mapped IPv6 is the IPv4 client; an IPv6 /64 shares one budget', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '2' } });
  const from = (remoteAddress: string) => app.inject({ url: `${API}/categories`, remoteAddress });
  assert.equal((await from('192.0.2.1')).statusCode, 200);
  assert.equal((await from('::ffff:192.0.2.1')).statusCode, 200);
  assert.equal((await from('::ffff:c000:201')).statusCode, 429);
  assert.equal((await from('2001:db8:0:1::1')).statusCode, 200);
  assert.equal((await from('2001:db8:0:1:ffff::2')).statusCode, 200);
  assert.equal((await from('2001:db8:0:1::3')).statusCode, 429);
  assert.equal((await from('2001:db8:0:2::1')).statusCode, 200, 'another /64 is another client');
});

test('rate limit › RATE_LIMIT_MAX=0 turns it off', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '0' } });
  for (let i = 0; i < 100; i++) assert.equal((await app.inject({ url: `${API}/categories` })).statusCode, 200);
  assert.equal((await app.inject({ url: `${API}/categories` })).headers['ratelimit-limit'], undefined);
});

test('rate limit › real sockets from several loopback addresses keep separate budgets', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '5' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const get = async (localAddress: string) => (await send(port, `${API}/categories`, { localAddress })).status;
  const statuses = async (addr: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await get(addr));
    return out;
  };
  assert.deepEqual(await statuses('127.0.0.2', 6), [200, 200, 200, 200, 200, 429]);
  assert.deepEqual(await statuses('127.0.0.3', 5), [200, 200, 200, 200, 200], 'another client is untouched');
});

test('RateLimit headers › meaningful from the first request: the reset is the real window, never 0', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '60' } });
  const first = await app.inject({ url: '/api/v1/directory/categories' });
  assert.equal(first.headers['ratelimit-limit'], '5');
  assert.equal(first.headers['ratelimit-remaining'], '4');
  assert.equal(first.headers['ratelimit-reset'], '60');
});
