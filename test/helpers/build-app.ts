/**
 * `buildTestApp(t)`: the real app on a fresh SQLite file filled from the fixture content,
 * closed after the test. Requests go through `app.inject`, no socket needed.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { importContent } from '../../src/content/import-content.js';
import type { Dataset } from '../../src/domain.js';
import { LiveDirectory } from '../../src/live-directory.js';
import type { RateLimiter } from '../../src/rate-limit/rate-limiter.js';
import { SlidingWindowLimiter } from '../../src/rate-limit/sliding-window-limiter.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import type { DirectoryStore } from '../../src/store/directory-store.js';
import { postgresSchema } from './services.js';
import { fixtureDataset, tempDir, writeContent } from './fixture.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  store: DirectoryStore;
  directory: LiveDirectory;
  limiter: RateLimiter | null;
  contentDir: string;
  databaseFile: string;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  dataset?: Dataset;
  /** The limiter's clock, for window-edge tests. */
  now?: () => number;
  /** Replaces the limiter built from the configuration. */
  limiter?: RateLimiter | null;
  /** Replaces the pages' limiter built from the configuration (PAGE_RATE_LIMIT_MAX). */
  pageLimiter?: RateLimiter | null;
  /** Extra routes a test needs (e.g. a slow one), added before the app is ready. */
  routes?: (app: FastifyInstance) => void;
  lifecycle?: { shuttingDown: boolean };
  /** Files to put in the content's media/ folder before the import (screenshots). */
  media?: Record<string, Buffer>;
  /** Default: `sqlite`, or `postgres` when TEST_ENGINE=postgres (the same suite on both stores). */
  engine?: 'sqlite' | 'postgres';
}

export async function buildTestApp(t: TestContext, options: TestAppOptions = {}): Promise<TestApp> {
  const dir = await tempDir();
  const contentDir = await writeContent(path.join(dir, 'content'), options.dataset ?? fixtureDataset());
  if (options.media) {
    await mkdir(path.join(contentDir, 'media'), { recursive: true });
    for (const [name, bytes] of Object.entries(options.media)) await writeFile(path.join(contentDir, 'media', name), bytes);
  }
  const engine = options.engine ?? (process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite');
  let databaseFile = path.join(dir, 'directory.sqlite');
  let dropSchema = async () => {};
  let store: DirectoryStore;
  if (engine === 'postgres') {
    const pg = await postgresSchema();
    databaseFile = pg.url;
    dropSchema = pg.drop;
    store = await PostgresStore.connect(pg.url);
  } else {
    store = SqliteStore.open(databaseFile);
  }
  await store.migrate();
  const outcome = await importContent(store, contentDir);
  assert.ok(outcome.ok, `fixture content must import: ${JSON.stringify(!outcome.ok && outcome.problems)}`);
  // A limit no functional test reaches; rate-limit tests set their own.
  const config = loadConfig({ RATE_LIMIT_MAX: '100000', PAGE_RATE_LIMIT_MAX: '100000', PUBLISHER_NAME: 'Éditeur de test', PUBLISHER_URL: 'https://editeur.example.org', CONTENT_DIR: contentDir, ...options.env, DATABASE_URL: databaseFile });
  const directory = await LiveDirectory.open(store, { checkEveryMs: 3_600_000 });
  const limiter =
    options.limiter !== undefined
      ? options.limiter
      : config.rateLimit.max === 0
        ? null
        : new SlidingWindowLimiter({ ...config.rateLimit, ...(options.now ? { now: options.now } : {}) });
  const pageLimiter = options.pageLimiter !== undefined ? options.pageLimiter : config.pageRateLimit.max === 0 ? null : new SlidingWindowLimiter({ ...config.pageRateLimit, ...(options.now ? { now: options.now } : {}) });
  const app = await buildApp({ config, directory, limiter, pageLimiter, fastify: { logger: false }, ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}) });
  options.routes?.(app);
  await app.ready();
  t.after(async () => {
    if (!closed.has(app)) await app.close();
    await limiter?.close();
    await pageLimiter?.close();
    await directory.stop();
    await store.close();
    await dropSchema();
    await rm(dir, { recursive: true, force: true });
  });
  return { app, config, store, directory, limiter, contentDir, databaseFile };
}

export const API = '/api/v1/directory';
/** Apps a test already closed itself. */
export const closed = new WeakSet<FastifyInstance>();
