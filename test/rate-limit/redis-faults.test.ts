/**
 * The shared limiter when Redis misbehaves rather than disappears: a Redis that stops
 * answering without closing the connection (issue 17, item 5), and a client's budget across
 * an outage (item 6). Redis is reached through a relay the test can freeze or cut.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { RedisLimiter } from '../../src/rate-limit/redis-limiter.js';
import { SlidingWindowLimiter } from '../../src/rate-limit/sliding-window-limiter.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { CuttableRelay, REDIS_URL, skipWithoutRedis, until } from '../helpers/services.js';

const quiet = { warn: () => {}, info: () => {}, error: () => {} };

async function relayToRedis(t: TestContext) {
  const target = new URL(REDIS_URL!);
  const relay = await CuttableRelay.start({ host: target.hostname, port: Number(target.port || 6379) });
  t.after(() => relay.down());
  const url = new URL(REDIS_URL!);
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  return { relay, url: url.toString() };
}

function limiterOn(url: string, max: number, keyPrefix: string, extra: { retryAfterMs?: number } = {}) {
  return RedisLimiter.connect(url, {
    max,
    windowMs: 60_000,
    fallback: new SlidingWindowLimiter({ max, windowMs: 60_000 }),
    log: quiet,
    keyPrefix,
    commandTimeoutMs: 250,
    ...extra,
  });
}

/** The app with a shared limiter (1,000 a window) reaching Redis through a relay, probing every 0.3 s. */
async function appBehindRelay(t: TestContext, name: string) {
  const { relay, url } = await relayToRedis(t);
  const prefix = `${name}:${randomBytes(4).toString('hex')}:`;
  const limiter = await limiterOn(url, 1000, prefix, { retryAfterMs: 300 });
  const { app } = await buildTestApp(t, { limiter, env: { RATE_LIMIT_MAX: '1000' } });
  return {
    relay,
    prefix,
    // /readyz says whether the limiter's store answers; with a Redis limiter, that is Redis.
    backend: async () => ((await app.inject({ url: '/readyz' })).json().rate_limiter.reachable ? 'redis' : 'memory (redis unavailable)'),
    hit: (address: string) => app.inject({ url: `${API}/categories`, remoteAddress: address }),
  };
}

describe('Redis faults', { skip: skipWithoutRedis }, () => {
  test('a Redis that stops answering costs one timeout, not one per request; when it answers again it is used and /readyz says so', async (t) => {
    const { relay, prefix, backend, hit } = await appBehindRelay(t, 'frozen');

    assert.equal((await hit('192.0.2.70')).statusCode, 200);
    assert.equal(await backend(), 'redis');

    relay.freeze();
    const requests = 40;
    const started = Date.now();
    for (let i = 0; i < requests; i++) assert.equal((await hit('192.0.2.70')).statusCode, 200, `request ${i + 1} during the freeze`);
    const elapsed = Date.now() - started;
    // Paying the 250 ms timeout on each would take 10 s; the breaker pays it about once.
    assert.ok(elapsed < (requests * 250) / 2, `${requests} requests took ${elapsed} ms during the freeze`);
    assert.equal(await backend(), 'memory (redis unavailable)');

    relay.thaw();
    assert.ok(await until(async () => (await backend()) === 'redis', 15_000), '/readyz says Redis is used again');
    // Counts go to Redis again: another instance sees them.
    const other = await limiterOn(REDIS_URL!, 1000, prefix);
    t.after(() => other.close());
    for (let i = 0; i < 3; i++) assert.equal((await hit('192.0.2.71')).statusCode, 200);
    const seen = await other.hit('192.0.2.71');
    assert.equal(seen.remaining, 1000 - 4, 'the three requests after the thaw were counted in Redis');
  });

  test('replies lost in a freeze: the connection is made again instead of every later reply being a step behind', async (t) => {
    const { relay, prefix, backend, hit } = await appBehindRelay(t, 'lost');
    assert.equal((await hit('192.0.2.90')).statusCode, 200);

    relay.freeze({ drop: true });
    for (let i = 0; i < 5; i++) assert.equal((await hit('192.0.2.90')).statusCode, 200);
    relay.thaw();
    // The commands sent during the freeze will never be answered: only a new connection helps.
    assert.ok(await until(async () => (await backend()) === 'redis', 15_000), '/readyz says Redis is used again');
    const requests = 20;
    const started = Date.now();
    for (let i = 0; i < requests; i++) assert.equal((await hit('192.0.2.91')).statusCode, 200);
    const elapsed = Date.now() - started;
    assert.ok(elapsed < (requests * 250) / 2, `${requests} requests took ${elapsed} ms after the thaw`);
    const other = await limiterOn(REDIS_URL!, 1000, prefix);
    t.after(() => other.close());
    assert.equal((await other.hit('192.0.2.91')).remaining, 1000 - requests - 1, 'they were counted in Redis');
  });

  test('an outage does not hand a client a second budget: what it spent through Redis still counts', async (t) => {
    const { relay, url } = await relayToRedis(t);
    const max = 60;
    const spent = 40;
    const limiter = await limiterOn(url, max, `budget:${randomBytes(4).toString('hex')}:`);
    const { app } = await buildTestApp(t, { limiter, env: { RATE_LIMIT_MAX: String(max) } });
    const hit = (address: string) => app.inject({ url: `${API}/categories`, remoteAddress: address });

    for (let i = 0; i < spent; i++) assert.equal((await hit('198.51.100.80')).statusCode, 200);
    assert.equal(limiter.backend, 'redis');
    await relay.down();

    let allowed = spent;
    const statuses = new Set<number>();
    for (let i = 0; i < 2 * max; i++) {
      const res = await hit('198.51.100.80');
      statuses.add(res.statusCode);
      if (res.statusCode === 200) allowed++;
    }
    assert.deepEqual([...statuses].sort(), [200, 429], 'answered locally, never a 500');
    assert.equal(limiter.backend, 'memory (redis unavailable)');
    // docs/security.md: on one instance, at most RATE_LIMIT_MAX in any window across an outage.
    assert.ok(allowed <= max, `${allowed} requests allowed within one window (bound ${max})`);
    assert.equal(allowed, max, 'and the rest of the budget is still there');
    // A client that had spent nothing has its whole budget.
    let fresh = 0;
    for (let i = 0; i < max + 5; i++) if ((await hit('198.51.100.81')).statusCode === 200) fresh++;
    assert.equal(fresh, max);
  });
});
