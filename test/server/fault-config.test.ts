/** The timeouts that bound a silent Redis or PostgreSQL: defaults, and refusals naming the variable. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

test('config › DATABASE_TIMEOUT_MS, REDIS_TIMEOUT_MS and REDIS_RETRY_MS have defaults and are checked', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.databaseTimeoutMs, 5000);
  assert.deepEqual(defaults.redis, { commandTimeoutMs: 250, retryAfterMs: 2000 });
  const set = loadConfig({ DATABASE_TIMEOUT_MS: '1500', REDIS_TIMEOUT_MS: '100', REDIS_RETRY_MS: '500' });
  assert.equal(set.databaseTimeoutMs, 1500);
  assert.deepEqual(set.redis, { commandTimeoutMs: 100, retryAfterMs: 500 });
  for (const [name, value] of [
    ['DATABASE_TIMEOUT_MS', '0'],
    ['DATABASE_TIMEOUT_MS', '5s'],
    ['REDIS_TIMEOUT_MS', '5'],
    ['REDIS_TIMEOUT_MS', '-1'],
    ['REDIS_RETRY_MS', '99'],
  ] as const) {
    assert.throws(() => loadConfig({ [name]: value }), (err: unknown) => err instanceof ConfigError && err.variable === name, `${name}=${value}`);
  }
});
