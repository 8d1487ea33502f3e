/** The shared limiter on a real Redis: several instances, one count; outages do not fail requests. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { RedisLimiter } from '../../src/rate-limit/redis-limiter.js';
import { SlidingWindowLimiter } from '../../src/rate-limit/sliding-window-limiter.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { OwnRedis, REDIS_URL, skipWithoutRedis } from '../helpers/services.js';

const quiet = { warn: () => {}, info: () => {}, error: () => {} };

async function sharedLimiter(url: string, max: number, keyPrefix: string) {
  return RedisLimiter.connect(url, { max, windowMs: 60_000, fallback: new SlidingWindowLimiter({ max, windowMs: 60_000 }), log: quiet, keyPrefix });
}

describe('Redis rate limit', { skip: skipWithoutRedis }, () => {
  test('pages: a budget of their own in the same Redis (rlp: keys), shared by instances, apart from the API’s', async (t) => {
    const { createLimiter } = await import('../../src/rate-limit/create-limiter.js');
    const { loadConfig } = await import('../../src/config.js');
    const config = loadConfig({ REDIS_URL: REDIS_URL!, PAGE_RATE_LIMIT_MAX: '3' });
    const client = `198.51.100.${20 + (randomBytes(1)[0]! % 200)}`;
    const pages = [await createLimiter(config, quiet, 'pages'), await createLimiter(config, quiet, 'pages')];
    const a = await buildTestApp(t, { pageLimiter: pages[0], limiter: await sharedLimiter(REDIS_URL!, 2, `test:${randomBytes(4).toString('hex')}:`), env: { RATE_LIMIT_MAX: '2' } });
    const b = await buildTestApp(t, { pageLimiter: pages[1] });
    t.after(async () => { for (const p of pages) await p?.close(); });
    for (let i = 0; i < 3; i++) assert.equal((await (i % 2 ? a : b).app.inject({ url: '/outils', remoteAddress: client })).statusCode, 200, `page ${i + 1}`);
    for (const instance of [a, b]) {
      const res = await instance.app.inject({ url: '/collections', remoteAddress: client });
      assert.equal(res.statusCode, 429);
      assert.match(String(res.headers['content-type']), /^text\/html/);
    }
    // The API's count is its own: both of its requests still pass.
    for (let i = 0; i < 2; i++) assert.equal((await a.app.inject({ url: `${API}/categories`, remoteAddress: client })).statusCode, 200);
  });

  test('two instances sharing Redis allow 60 in all; the 61st is 429 on either', async (t) => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const a = await buildTestApp(t, { limiter: await sharedLimiter(REDIS_URL!, 60, prefix), env: { RATE_LIMIT_MAX: '60' } });
    const b = await buildTestApp(t, { limiter: await sharedLimiter(REDIS_URL!, 60, prefix), env: { RATE_LIMIT_MAX: '60' } });
    for (let i = 0; i < 60; i++) {
      const res = await (i % 2 ? a : b).app.inject({ url: `${API}/categories`, remoteAddress: '198.51.100.20' });
      assert.equal(res.statusCode, 200, `request ${i + 1}`);
      assert.equal(res.headers['ratelimit-remaining'], String(59 - i));
    }
    for (const instance of [a, b]) {
      const res = await instance.app.inject({ url: `${API}/categories`, remoteAddress: '198.51.100.20' });
      assert.equal(res.statusCode, 429);
      assert.ok(Number(res.headers['retry-after']) >= 1);
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    assert.equal((await a.app.inject({ url: `${API}/categories`, remoteAddress: '198.51.100.21' })).statusCode, 200, 'another client');
    assert.deepEqual((await a.app.inject({ url: '/readyz' })).json().rate_limiter, { enabled: true, reachable: true });
  });

  test('Redis stopped mid-run: no failed request, local counting, then shared counts again', async (t) => {
    const redis = await OwnRedis.start();
    t.after(() => redis.down());
    const limiter = await sharedLimiter(redis.url, 5, 'fault:');
    const a = await buildTestApp(t, { limiter, env: { RATE_LIMIT_MAX: '5' } });
    const other = await sharedLimiter(redis.url, 5, 'fault:');
    t.after(() => other.close());
    const hit = () => a.app.inject({ url: `${API}/categories`, remoteAddress: '192.0.2.50' });

    assert.equal((await hit()).statusCode, 200);
    assert.equal((await hit()).statusCode, 200);
    await redis.down();
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 8; i++) statuses.push((await hit()).statusCode);
    assert.ok(Date.now() - started < 3_000, 'no request waits on the dead Redis');
    assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join(','));
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429, 429], 'the local limiter takes over from the count Redis last gave');
    assert.deepEqual((await a.app.inject({ url: '/readyz' })).json().rate_limiter, { enabled: true, reachable: false });

    await redis.up();
    for (let i = 0; i < 100 && limiter.backend !== 'redis'; i++) await sleep(50);
    assert.equal(limiter.backend, 'redis', 'back on Redis');
    // The restarted Redis is empty: the shared count starts again and is shared with `other`.
    for (let i = 0; i < 4; i++) assert.equal((await hit()).statusCode, 200);
    for (let i = 0; i < 50 && other.backend !== 'redis'; i++) await sleep(50);
    const fromOther = await other.hit('192.0.2.50');
    assert.equal(fromOther.allowed, true);
    assert.equal(fromOther.remaining, 0, 'the other instance sees the same count');
    assert.equal((await hit()).statusCode, 429);
  });
});
