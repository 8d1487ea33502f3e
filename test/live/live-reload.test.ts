import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importContent } from '../../src/content/import-content.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset, writeContent } from '../helpers/fixture.js';

test('live data › a finished import is served without a restart; caches never serve stale bytes', async (t) => {
  const { app, store, directory, contentDir } = await buildTestApp(t);
  const urls = [`${API}/tools`, `${API}/tools?q=quiz`, `${API}/tools/quizzy`, `${API}/collections/creer-un-quiz`];
  const before = new Map<string, { etag: string; body: string }>();
  for (const url of urls) {
    const res = await app.inject({ url });
    before.set(url, { etag: res.headers.etag as string, body: res.body });
    // Warm the compressed variant too.
    await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
  }
  const revision = directory.current.model.revision;

  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'quizzy')!.name = 'Quizzy Nouvelle Version';
  await writeContent(contentDir, dataset);
  const outcome = await importContent(store, contentDir);
  assert.ok(outcome.ok && outcome.report?.changed);

  // The server checks the revision on a timer; refresh() is what the timer calls.
  assert.equal(await directory.refresh(), true);
  assert.equal(directory.current.model.revision, revision + 1);
  for (const url of urls) {
    const res = await app.inject({ url, headers: { 'if-none-match': before.get(url)!.etag } });
    assert.equal(res.statusCode, 200, `${url}: the old ETag no longer matches`);
    assert.notEqual(res.headers.etag, before.get(url)!.etag, url);
    assert.ok(res.body.includes('Quizzy Nouvelle Version'), url);
    const head = await app.inject({ method: 'HEAD', url });
    assert.equal(head.headers.etag, res.headers.etag);
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers.etag, res.headers.etag);
  }
  const readyz = (await app.inject({ url: '/readyz' })).json();
  assert.equal(readyz.revision, revision + 1);
  assert.equal(await directory.refresh(), false, 'no new revision, no rebuild');
});

test('live data › unpublishing a tool removes it everywhere at the next revision', async (t) => {
  const { app, store, directory, contentDir } = await buildTestApp(t);
  assert.equal((await app.inject({ url: `${API}/tools/quizzy` })).statusCode, 200);
  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'quizzy')!.status = 'draft';
  await writeContent(contentDir, dataset);
  assert.ok((await importContent(store, contentDir)).ok);
  await directory.refresh();
  assert.equal((await app.inject({ url: `${API}/tools/quizzy` })).statusCode, 404);
  assert.ok(!(await app.inject({ url: `${API}/tools` })).body.includes('quizzy'));
  const collection = (await app.inject({ url: `${API}/collections/creer-un-quiz` })).json();
  assert.equal(collection.data.tool_count, 1);
  assert.deepEqual(collection.data.tools.map((i: { position: number }) => i.position), [1]);
  const categories = (await app.inject({ url: `${API}/categories` })).json();
  assert.equal(categories.data.find((c: { slug: string }) => c.slug === 'quiz').tool_count, 2);
});

test('/healthz and /readyz › alive, and ready with revision and what is reachable, never a version or a client count', async (t) => {
  const { app, store } = await buildTestApp(t);
  assert.deepEqual((await app.inject({ url: '/healthz' })).json(), { status: 'ok' });
  const ready = (await app.inject({ url: '/readyz' })).json();
  assert.equal(ready.status, 'ready');
  assert.equal(ready.revision, 1);
  assert.equal(ready.tools, 9);
  assert.deepEqual(ready.store, { reachable: true });
  assert.deepEqual(ready.rate_limiter, { enabled: true, reachable: true });
  assert.deepEqual(Object.keys(ready).sort(), ['loaded_at', 'rate_limiter', 'revision', 'status', 'store', 'tools']);
  // Nothing that says which software, in which version, runs behind the API (the start-up log has it).
  assert.doesNotMatch(JSON.stringify(ready), /\d+\.\d+\.\d+|sqlite|postgres|\bpg\b|node|redis|memory|clients/i);
  // The driver in use is the one made for this Node.js: better-sqlite3 13 from Node.js 22 on, 12 on 20.
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  const expected = store.engine === 'postgres' ? /^pg \d+\.\d+\.\d+ \(PostgreSQL \d+/ : nodeMajor >= 22 ? /^better-sqlite3 13\.\d+\.\d+ \(SQLite 3\.\d+/ : /^better-sqlite3 12\.\d+\.\d+ \(SQLite 3\.\d+/;
  assert.match(store.driver, expected);
  const { app: unlimited } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '0' } });
  assert.deepEqual((await unlimited.inject({ url: '/readyz' })).json().rate_limiter, { enabled: false, reachable: true });
});

test('live data › a big revision is built in slices: the server keeps answering while it loads', async (t) => {
  const { app, store, directory } = await buildTestApp(t);
  const dataset = fixtureDataset();
  const base = dataset.tools[0]!;
  for (let i = 0; i < 4000; i++) {
    dataset.tools.push({ ...base, slug: `outil-${i}`, name: `Outil ${i}`, website_url: `https://outil-${i}.example.org/`, former_slugs: [], short_description: `Outil numéro ${i} pour la classe, avec des quiz et des exercices, pour les élèves du collège.` });
  }
  assert.ok((await store.replaceDataset(dataset)).changed);
  let loaded = false;
  const loading = directory.refresh().then((replaced) => {
    loaded = true;
    return replaced;
  });
  // Built in one block, the next revision would be ready before any request could run.
  const health = await app.inject({ url: '/healthz' });
  assert.equal(health.statusCode, 200);
  assert.equal(loaded, false, 'a request was answered while the next revision was being built');
  assert.equal(directory.current.model.tools.length, 9, 'meanwhile, the current revision serves');
  assert.equal(await loading, true);
  assert.equal(directory.current.model.tools.length, 4009);
});

test('live data › a change notified to every instance is loaded after a random delay up to the jitter', async () => {
  const { LiveDirectory } = await import('../../src/live-directory.js');
  let notify = () => {};
  let reads = 0;
  const snapshot = { revision: 1, dataset: fixtureDataset(), changes: [] };
  const store = {
    engine: 'postgres' as const,
    driver: 'test',
    migrate: async () => {},
    revision: async () => snapshot.revision,
    readSnapshot: async () => {
      reads++;
      return { ...snapshot };
    },
    replaceDataset: async () => { throw new Error('not used'); },
    watch: async (listener: () => void) => {
      notify = listener;
      return async () => {};
    },
    close: async () => {},
  };
  const directory = await LiveDirectory.open(store, { checkEveryMs: 3_600_000, notifyJitterMs: 300 });
  await directory.start();
  const revision = () => directory.current.model.revision;
  snapshot.revision = 2;
  notify();
  await new Promise((r) => setImmediate(r));
  assert.equal(revision(), 1, 'not loaded at once');
  for (let i = 0; i < 100 && revision() !== 2; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(revision(), 2, 'loaded within the jitter');
  assert.equal(reads, 2);
  await directory.stop();
});
