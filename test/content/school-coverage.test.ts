/**
 * The bundled directory against what the API promises of it: the examples the OpenAPI
 * document gives exist, and the school facts' coverage targets it has reached stay reached.
 * (content:check prints every figure; `generative_ai` and `min_age` are not at their
 * targets yet: they need the publishers' terms read — see the closing note of issue 27.)
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Dataset } from '../../src/domain.js';
import { formatProblem } from '../../src/content/content-problems.js';
import { loadContent } from '../../src/content/load-content.js';
import { CollectionSlugParams, ToolSlugParams } from '../../src/schemas/tools.js';
import { schoolCoverage } from '../../src/school/coverage.js';

let dataset: Dataset;
before(async () => {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.problems.map(formatProblem).join('\n'));
  dataset = loaded.dataset;
});

const published = () => dataset.tools.filter((t) => t.status === 'published');

test('content › the slugs the OpenAPI document gives as examples are published', () => {
  const tool = ToolSlugParams.properties.slug.examples![0] as string;
  const collection = CollectionSlugParams.properties.slug.examples![0] as string;
  assert.ok(published().some((t) => t.slug === tool), tool);
  assert.ok(dataset.collections.some((c) => c.slug === collection && c.status === 'published'), collection);
});

test('content › the school facts reached their targets for levels, subjects, pupil use, open source, pupil account and offline', () => {
  const reached = ['levels', 'subjects', 'pupil_use', 'open_source', 'pupil_account', 'offline'];
  for (const line of schoolCoverage(dataset.tools).filter((l) => reached.includes(l.field))) {
    assert.ok(line.known / line.total >= line.target!, `${line.field}: ${line.known} / ${line.total} is below ${line.target! * 100} %`);
  }
});

test('content › every subject of the vocabulary has published tools', () => {
  const subjects = new Set(published().flatMap((t) => t.school.subjects ?? []));
  const missing = dataset.vocabularies.subjects.map((s) => s.slug).filter((slug) => !subjects.has(slug));
  assert.deepEqual(missing, []);
});
