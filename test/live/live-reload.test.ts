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

test('/healthz and /readyz › alive, and ready with revision and limiter backend', async (t) => {
  const { app, store } = await buildTestApp(t);
  assert.deepEqual((await app.inject({ url: '/healthz' })).json(), { status: 'ok' });
  const ready = (await app.inject({ url: '/readyz' })).json();
  assert.equal(ready.status, 'ready');
  assert.equal(ready.revision, 1);
  assert.equal(ready.tools, 9);
  assert.deepEqual(ready.store, { engine: store.engine, driver: store.driver, reachable: true });
  // The driver in use is the one made for this Node.js: better-sqlite3 13 from Node.js 22 on, 12 on 20.
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  const expected = store.engine === 'postgres' ? /^pg \d+\.\d+\.\d+ \(PostgreSQL \d+/ : nodeMajor >= 22 ? /^better-sqlite3 13\.\d+\.\d+ \(SQLite 3\.\d+/ : /^better-sqlite3 12\.\d+\.\d+ \(SQLite 3\.\d+/;
  assert.match(ready.store.driver, expected);
  assert.equal(ready.node, process.version);
  assert.equal(ready.rate_limiter, 'memory');
});
