/**
 * Helpers for the change log, feeds and exports tests: a second import of the fixture
 * that unpublishes one tool and renames another, and a second server on the same store
 * (a restart: nothing carried over in memory).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestContext } from 'node:test';
import { buildApp } from '../../src/app.js';
import { importContent } from '../../src/content/import-content.js';
import type { Dataset } from '../../src/domain.js';
import { LiveDirectory } from '../../src/live-directory.js';
import { openStore } from '../../src/store/open-store.js';
import type { TestApp } from './build-app.js';
import { fixtureDataset, writeContent } from './fixture.js';

/**
 * The fixture after an editor's day: `quizzy` back to draft (unpublished), `quiz-master`
 * renamed `quiz-maestro` (its old slug kept for the 301), `eau-vive` re-described
 * (updated), and edits that the public never sees: the draft `brouillon` rewritten, a
 * former slug added to `ecole-directe-test`.
 */
export function editedDataset(): Dataset {
  const dataset = fixtureDataset();
  const tool = (slug: string) => dataset.tools.find((t) => t.slug === slug)!;
  tool('quizzy').status = 'draft';
  Object.assign(tool('quiz-master'), { slug: 'quiz-maestro', name: 'Quiz Maestro', former_slugs: ['quiz-master'] });
  tool('eau-vive').short_description = "Simulations du cycle de l'eau, nouvelle version avec des fiches d'activité pour le cycle 3.";
  tool('brouillon').name = 'Brouillon Réécrit';
  tool('ecole-directe-test').former_slugs = ['ecole-test-ancien'];
  for (const c of dataset.collections) for (const item of c.items) if (item.tool === 'quiz-master') item.tool = 'quiz-maestro';
  return dataset;
}

/** Waits for the next whole second, so the next import's instant differs from the last one. */
export async function nextSecond(): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + 20);
}

/** Imports `dataset` into the test app's store and loads the new revision. */
export async function importAndRefresh(ctx: TestApp, dataset: Dataset): Promise<void> {
  await writeContent(ctx.contentDir, dataset);
  const outcome = await importContent(ctx.store, ctx.contentDir);
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.problems));
  assert.equal(await ctx.directory.refresh(), true);
}

/** Another server process on the same store: a new store connection, read model and app. */
export async function restarted(t: TestContext, ctx: TestApp) {
  const store = await openStore(ctx.databaseFile);
  await store.migrate();
  const directory = await LiveDirectory.open(store, { checkEveryMs: 3_600_000 });
  const app = await buildApp({ config: ctx.config, directory, limiter: null, fastify: { logger: false } });
  await app.ready();
  t.after(async () => {
    await app.close();
    await directory.stop();
    await store.close();
  });
  return app;
}
