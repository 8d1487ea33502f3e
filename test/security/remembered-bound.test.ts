/**
 * Issue 17, item 13: what the fast path remembers stays within its 32 MiB bound, keys
 * included (a URL near the 16 kB header bound is a 32 kB key).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { httpRevision, RememberedResponses, MAX_REMEMBERED_KEY } from '../../src/web/revision-state.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { send } from '../helpers/http.js';

test('remembered requests › keys count toward the bound; over-long ones are not kept', () => {
  const remembered = new RememberedResponses();
  const entry = { status: 200, body: Buffer.alloc(100), etag: 'W/"x"', headers: {} };
  let most = 0;
  for (let i = 0; i < 19_000; i++) {
    remembered.set(`${i} ${'k'.repeat(MAX_REMEMBERED_KEY - 10)}`, entry);
    most = Math.max(most, remembered.retainedBytes);
  }
  assert.ok(most <= 32 * 1024 * 1024, `at most 32 MiB counted (was ${most})`);
  const keyBytes = remembered.size * (MAX_REMEMBERED_KEY - 4) * 2;
  assert.ok(keyBytes <= 32 * 1024 * 1024, `the keys kept fit the bound (${keyBytes} bytes)`);
  remembered.set('k'.repeat(MAX_REMEMBERED_KEY + 1), entry);
  assert.equal(remembered.get('k'.repeat(MAX_REMEMBERED_KEY + 1)), undefined);
});

test('remembered requests › 3,000 distinct long URLs through a socket keep the map within its bound', async (t) => {
  const { app, directory } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '0' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const filler = 'x'.repeat(1_900);
  for (let i = 0; i < 3_000; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => send(port, `${API}/categories?unknown${i + j}=${filler}`)));
  }
  const remembered = httpRevision(directory.current).remembered;
  assert.ok(remembered.size > 0);
  assert.ok(remembered.retainedBytes <= 32 * 1024 * 1024);
  // Each key is counted at two bytes a character: 3,000 keys of ~2 kB are ~12 MiB counted.
  assert.ok(remembered.retainedBytes >= remembered.size * 1_900 * 2, 'keys are counted');
});
