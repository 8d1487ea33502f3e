import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SlidingWindowLimiter } from '../../src/rate-limit/sliding-window-limiter.js';
import { clientKey } from '../../src/rate-limit/client-key.js';

function limiterAt(max = 60, windowMs = 60_000) {
  const clock = { now: 0 };
  const limiter = new SlidingWindowLimiter({ max, windowMs, now: () => clock.now });
  return { limiter, clock };
}

test('sliding window › 60 at t=0, then one at t=59.9 s is refused; at t=60 s it passes', async (t) => {
  const { limiter, clock } = limiterAt();
  t.after(() => limiter.close());
  for (let i = 0; i < 60; i++) assert.equal(limiter.hit('a').allowed, true, `request ${i + 1}`);
  clock.now = 59_900;
  const refused = limiter.hit('a');
  assert.equal(refused.allowed, false);
  assert.equal(refused.remaining, 0);
  assert.equal(refused.resetSeconds, 1, 'whole seconds until one more is allowed, at least 1');
  clock.now = 60_000;
  assert.equal(limiter.hit('a').allowed, true);
});

test('sliding window › 60 at t=59.9 s and 60 at t=60.1 s do not let 120 through', async (t) => {
  const { limiter, clock } = limiterAt();
  t.after(() => limiter.close());
  clock.now = 59_900;
  let accepted = 0;
  for (let i = 0; i < 60; i++) accepted += limiter.hit('a').allowed ? 1 : 0;
  clock.now = 60_100;
  for (let i = 0; i < 60; i++) accepted += limiter.hit('a').allowed ? 1 : 0;
  assert.equal(accepted, 60);
});

test('sliding window › refused requests do not count: backing off a full window restores service', async (t) => {
  const { limiter, clock } = limiterAt();
  t.after(() => limiter.close());
  for (let i = 0; i < 60; i++) limiter.hit('a');
  for (let s = 1; s < 60; s++) {
    clock.now = s * 1000;
    assert.equal(limiter.hit('a').allowed, false);
  }
  clock.now = 60_000;
  for (let i = 0; i < 60; i++) assert.equal(limiter.hit('a').allowed, true, `request ${i + 1} after backing off`);
  assert.equal(limiter.hit('a').allowed, false);
});

test('sliding window › headers: remaining counts down, reset says when the oldest request counted gives one back (the whole window at first)', async (t) => {
  const { limiter, clock } = limiterAt(3, 10_000);
  t.after(() => limiter.close());
  assert.deepEqual(limiter.hit('a'), { allowed: true, limit: 3, remaining: 2, resetSeconds: 10 });
  clock.now = 2_500;
  assert.deepEqual(limiter.hit('a'), { allowed: true, limit: 3, remaining: 1, resetSeconds: 8 });
  clock.now = 4_000;
  assert.deepEqual(limiter.hit('a'), { allowed: true, limit: 3, remaining: 0, resetSeconds: 6 });
  assert.deepEqual(limiter.hit('a'), { allowed: false, limit: 3, remaining: 0, resetSeconds: 6 });
  clock.now = 10_000;
  assert.deepEqual(limiter.hit('a'), { allowed: true, limit: 3, remaining: 0, resetSeconds: 3 });
});

test('sliding window › property: no 60-second span ever holds more than `max` accepted requests', async () => {
  await fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 8 }), (gaps, max) => {
      const windowMs = 5_000;
      const { limiter, clock } = limiterAt(max, windowMs);
      const accepted: number[] = [];
      for (const gap of gaps) {
        clock.now += gap;
        const d = limiter.hit('a');
        if (d.allowed) accepted.push(clock.now);
        // A refusal is only right when the window is really full.
        else assert.equal(accepted.filter((x) => x > clock.now - windowMs).length, max);
        if (!d.allowed) assert.ok(accepted.filter((x) => x > clock.now + d.resetSeconds * 1000 - windowMs).length < max, 'after Retry-After a request passes');
      }
      for (const at of accepted) assert.ok(accepted.filter((x) => x > at - windowMs && x <= at).length <= max);
      void limiter.close();
    }),
    { numRuns: 500 },
  );
});

test('sliding window › memory: idle clients are dropped after a window; the table is bounded', async (t) => {
  const clock = { now: 0 };
  const limiter = new SlidingWindowLimiter({ max: 60, windowMs: 60_000, maxClients: 1000, now: () => clock.now });
  t.after(() => limiter.close());
  for (let i = 0; i < 1000; i++) limiter.hit(`c${i}`);
  assert.equal(limiter.size, 1000);
  const refused = limiter.hit('newcomer');
  assert.equal(refused.allowed, false, 'a full table refuses newcomers rather than forgetting active clients');
  assert.ok(refused.resetSeconds >= 1);
  clock.now = 30_000;
  assert.equal(limiter.hit('c5').allowed, true, 'known clients keep being served');
  clock.now = 60_001;
  limiter.sweep();
  assert.equal(limiter.size, 1, 'only the client active in the last window is kept');
  assert.equal(limiter.hit('newcomer').allowed, true);
});

test('sliding window › a sweep drops a client that left the window behind a busy one still in it', async (t) => {
  const { limiter, clock } = limiterAt(60, 2_000);
  t.after(() => limiter.close());
  for (const [at, client] of [[0, 'busy'], [100, 'busy'], [150, 'quiet'], [250, 'busy']] as const) {
    clock.now = at;
    assert.equal(limiter.hit(client).allowed, true);
  }
  clock.now = 2_200; // quiet's last request (150) has left the window, busy's (250) has not
  limiter.sweep();
  assert.equal(limiter.size, 1);
  clock.now = 2_250;
  limiter.sweep();
  assert.equal(limiter.size, 0);
});

test('sliding window › property: a sweep keeps exactly the clients accepted in the last window', async () => {
  // Busy clients are moved to the end of the table only now and then; the sweep must still
  // neither keep a client that left the window nor drop one that did not.
  const step = fc.record({ client: fc.integer({ min: 0, max: 5 }), gap: fc.integer({ min: 0, max: 400 }), sweep: fc.boolean() });
  await fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 6 }), (steps, max) => {
      const windowMs = 2_000;
      const { limiter, clock } = limiterAt(max, windowMs);
      const lastAccepted = new Map<number, number>();
      for (const { client, gap, sweep } of steps) {
        clock.now += gap;
        if (limiter.hit(`c${client}`).allowed) lastAccepted.set(client, clock.now);
        if (sweep) {
          limiter.sweep();
          const active = [...lastAccepted.values()].filter((at) => at > clock.now - windowMs).length;
          assert.equal(limiter.size, active);
        }
      }
      void limiter.close();
    }),
    { numRuns: 500 },
  );
});

test('client key › IPv4, IPv4-mapped IPv6 in any notation, IPv6 by /64', () => {
  assert.equal(clientKey('192.0.2.1'), '192.0.2.1');
  assert.equal(clientKey('::ffff:192.0.2.1'), '192.0.2.1');
  assert.equal(clientKey('::ffff:c000:201'), '192.0.2.1');
  assert.equal(clientKey('0:0:0:0:0:ffff:c000:0201'), '192.0.2.1');
  assert.equal(clientKey('::FFFF:192.0.2.1'), '192.0.2.1');
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'));
  assert.notEqual(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:3::1'));
  assert.equal(clientKey('fe80::1%eth0'), clientKey('fe80::2'));
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
});
