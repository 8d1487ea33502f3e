/**
 * The store contract, run on every engine available: SQLite always, PostgreSQL when
 * TEST_POSTGRES_URL is set.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadContent } from '../../src/content/load-content.js';
import type { Dataset } from '../../src/domain.js';
import type { DirectoryStore } from '../../src/store/directory-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { postgresSchema, skipWithoutPostgres } from '../helpers/services.js';

/** The dataset as the loader hands it over (normalised), which is what stores receive. */
async function loaded(dataset: Dataset): Promise<Dataset> {
  const dir = await tempDir();
  try {
    const result = await loadContent(await writeContent(path.join(dir, 'c'), dataset));
    assert.ok(result.ok);
    return result.dataset;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const engines: Array<{ name: string; skip: string | false; open: () => Promise<{ store: DirectoryStore; cleanup: () => Promise<void> }> }> = [
  {
    name: 'sqlite',
    skip: false,
    open: async () => {
      const dir = await tempDir();
      const store = SqliteStore.open(path.join(dir, 'db.sqlite'));
      return { store, cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    skip: skipWithoutPostgres,
    open: async () => {
      const pg = await postgresSchema();
      return { store: await PostgresStore.connect(pg.url), cleanup: pg.drop };
    },
  },
];

for (const engine of engines) {
  describe(`store (${engine.name})`, { skip: engine.skip }, () => {
    test('migrations are idempotent; an empty store is revision 0', async (t) => {
      const { store, cleanup } = await engine.open();
      t.after(async () => { await store.close(); await cleanup(); });
      await store.migrate();
      await store.migrate();
      assert.equal(await store.revision(), 0);
      assert.deepEqual((await store.readSnapshot()).dataset, { categories: [], tools: [], collections: [], synonyms: { families: [], equivalents: [], expansions: [] } });
    });

    test('a dataset round-trips exactly; the same import again changes nothing', async (t) => {
      const { store, cleanup } = await engine.open();
      t.after(async () => { await store.close(); await cleanup(); });
      await store.migrate();
      const dataset = await loaded(fixtureDataset());
      const report = await store.replaceDataset(dataset);
      assert.equal(report.revision, 1);
      assert.equal(report.tools.added.length, 10);
      const snapshot = await store.readSnapshot();
      assert.equal(snapshot.revision, 1);
      const bySlug = (d: Dataset) => ({ ...d, tools: [...d.tools].sort((a, b) => (a.slug < b.slug ? -1 : 1)) });
      assert.deepEqual(bySlug(snapshot.dataset), bySlug(dataset));
      const again = await store.replaceDataset(dataset);
      assert.equal(again.changed, false);
      assert.equal(await store.revision(), 1);
    });

    test('a change bumps the revision and is reported; unpublishing is named', async (t) => {
      const { store, cleanup } = await engine.open();
      t.after(async () => { await store.close(); await cleanup(); });
      await store.migrate();
      const raw = fixtureDataset();
      await store.replaceDataset(await loaded(raw));
      raw.tools.find((x) => x.slug === 'quizzy')!.status = 'draft';
      raw.tools = raw.tools.filter((x) => x.slug !== 'eau-vive');
      const report = await store.replaceDataset(await loaded(raw));
      assert.equal(report.revision, 2);
      assert.deepEqual(report.tools.unpublished.sort(), ['eau-vive', 'quizzy']);
      assert.deepEqual(report.tools.removed, ['eau-vive']);
    });

    test('a failing import changes nothing', async (t) => {
      const { store, cleanup } = await engine.open();
      t.after(async () => { await store.close(); await cleanup(); });
      await store.migrate();
      await store.replaceDataset(await loaded(fixtureDataset()));
      const before = await store.readSnapshot();
      // Past the loader's checks, the database's own constraints still refuse a broken reference.
      const broken = await loaded(fixtureDataset());
      broken.tools[0]!.name = 'Changed before the failure';
      broken.collections[0]!.items.push({ tool: 'not-a-tool', note: 'Une référence cassée.' });
      await assert.rejects(store.replaceDataset(broken));
      assert.deepEqual(await store.readSnapshot(), before);
    });
  });
}
