/**
 * The store contract, run on every engine available: SQLite always, PostgreSQL when
 * TEST_POSTGRES_URL is set.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { loadContent } from '../../src/content/load-content.js';
import type { Dataset } from '../../src/domain.js';
import type { DirectoryStore } from '../../src/store/directory-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { migrations } from '../../src/store/schema-migrations.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { sqliteDriver } from '../../src/store/sqlite-driver.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { editedDataset } from '../helpers/follow.js';
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

interface Opened {
  store: DirectoryStore;
  cleanup: () => Promise<void>;
  /** Runs SQL beside the store, as an operator would (to play an older schema). */
  exec: (sql: string) => Promise<void>;
}

const engines: Array<{ name: string; skip: string | false; open: () => Promise<Opened> }> = [
  {
    name: 'sqlite',
    skip: false,
    open: async () => {
      const dir = await tempDir();
      const file = path.join(dir, 'db.sqlite');
      const store = SqliteStore.open(file);
      const exec = async (sql: string) => {
        const db = new (sqliteDriver().Database)(file);
        db.exec(sql);
        db.close();
      };
      return { store, cleanup: () => rm(dir, { recursive: true, force: true }), exec };
    },
  },
  {
    name: 'postgres',
    skip: skipWithoutPostgres,
    open: async () => {
      const schema = await postgresSchema();
      const exec = async (sql: string) => {
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        await client.query(sql);
        await client.end();
      };
      return { store: await PostgresStore.connect(schema.url), cleanup: schema.drop, exec };
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
      assert.deepEqual((await store.readSnapshot()).dataset, { categories: [], tools: [], collections: [], synonyms: { families: [], equivalents: [], expansions: [] }, vocabularies: { levels: [], subjects: [] }, searchVocabulary: { translations: [], filler: [], freeWords: [], alternatives: [], about: [], classroom: [], englishSenses: [], schoolFacts: [], pupils: [], classAges: [], english: {} }, rules: [] });
      assert.deepEqual((await store.readSnapshot()).changes, []);
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

    test('the change log is kept in the store, one row per tool change, and read with the snapshot', async (t) => {
      const { store, cleanup } = await engine.open();
      t.after(async () => { await store.close(); await cleanup(); });
      await store.migrate();
      await store.replaceDataset(await loaded(fixtureDataset()));
      const first = await store.readSnapshot();
      assert.equal(first.changes.length, 9);
      assert.ok(first.changes.every((c) => c.kind === 'created' && c.revision === 1));
      await store.replaceDataset(await loaded(editedDataset()));
      const { changes } = await store.readSnapshot();
      assert.deepEqual(changes.slice(0, 9), first.changes, 'earlier changes stay as they were');
      assert.deepEqual(changes.slice(9).map((c) => [c.kind, c.slug, c.previous_slug, c.revision]), [
        ['updated', 'eau-vive', null, 2],
        ['renamed', 'quiz-maestro', 'quiz-master', 2],
        ['unpublished', 'quizzy', null, 2],
      ]);
      assert.deepEqual(changes[10]!.tool, {
        name: 'Quiz Maestro',
        short_description: 'Créer un quiz en quelques minutes et le projeter en classe pour faire réviser les élèves.',
        category: { slug: 'quiz', name: 'Quiz et interaction' },
        pricing: 'freemium',
        website_url: 'https://quiz-master.example.org/',
      });
      assert.ok(changes[9]!.at >= changes[8]!.at);
      assert.match(changes[9]!.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      // The same content again: no new revision, no new change.
      await store.replaceDataset(await loaded(editedDataset()));
      assert.equal((await store.readSnapshot()).changes.length, 12);
    });

    test('migration 4 starts the log of a store that already held data: one `created` per published tool', async (t) => {
      const { store, cleanup, exec } = await engine.open();
      t.after(async () => { await store.close(); await cleanup(); });
      await store.migrate();
      await store.replaceDataset(await loaded(fixtureDataset()));
      const expected = (await store.readSnapshot()).changes;
      // Back to the schema before the change log, data kept: what an upgraded deployment has.
      await exec('DROP TABLE tool_changes; DELETE FROM schema_migrations WHERE version = 4;');
      await store.migrate();
      const { changes } = await store.readSnapshot();
      assert.deepEqual(changes.map(({ at: _at, ...c }) => c), expected.map(({ at: _at, ...c }) => c));
      assert.match(changes[0]!.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    });

    test('migration 5 keeps a v4 store\'s tools, dates and redirects; last_verified_at may then be null', async (t) => {
      const { store, cleanup, exec } = await engine.open();
      t.after(async () => { await store.close(); await cleanup(); });
      // A store as migration 4 left it, with one tool and one redirect.
      const dialect = engine.name === 'postgres' ? 'postgres' : 'sqlite';
      const before = migrations(dialect).filter((m) => m.version <= 4);
      await exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at ${dialect === 'postgres' ? 'TIMESTAMPTZ' : 'TEXT'} NOT NULL);
        ${before.map((m) => `${m.sql}; INSERT INTO schema_migrations VALUES (${m.version}, '2026-11-01T00:00:00Z');`).join('\n')}
        INSERT INTO categories VALUES ('quiz', 0, 'Quiz', 'Quiz et sondages pour la classe.');
        INSERT INTO tools (slug, name, status, category_slug, website_url, short_description, long_description, pricing_model, pricing_summary,
          tags, platforms, languages, created_at, updated_at, last_verified_at, screenshot)
        VALUES ('quizzy', 'Quizzy', 'published', 'quiz', 'https://quizzy.example.org/', 'court', 'long', 'free', 'gratuit',
          '[]', '[]', '["fr"]', '2026-01-01T08:00:00Z', '2026-01-01T08:00:00Z', '2026-01-02T08:00:00Z', '{"url":"https://img.example.org/a.png","alt":"x","width":1,"height":1}');
        INSERT INTO tool_redirects VALUES ('quizz', 'quizzy', 0);`);
      await store.migrate();
      const [tool] = (await store.readSnapshot()).dataset.tools;
      assert.equal(tool!.last_verified_at, '2026-01-02T08:00:00Z');
      assert.deepEqual(tool!.former_slugs, ['quizz'], 'the column copy must not cascade-delete redirects');
      assert.deepEqual([tool!.links_checked_at, tool!.link_status, tool!.link_redirects, tool!.screenshot], [null, null, {}, null]);
      const dataset = await loaded(fixtureDataset());
      dataset.tools[0]!.last_verified_at = null;
      Object.assign(dataset.tools[1]!, { links_checked_at: '2026-11-22T09:00:00Z', link_status: 'redirected', link_redirects: { website_url: 'http://www.example.org/x' } });
      await store.replaceDataset(dataset);
      assert.deepEqual((await store.readSnapshot()).dataset, dataset);
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
      assert.deepEqual(await store.readSnapshot(), before, 'no data and no change recorded');
    });
  });
}
