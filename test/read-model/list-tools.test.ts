/**
 * listTools (bitsets, tiers, partial ordering) against a naive reference that scans every
 * tool, on the bundled directory: same total, same page, for random queries.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import fc from 'fast-check';
import { loadContent } from '../../src/content/load-content.js';
import { PRICING_MODELS } from '../../src/domain.js';
import { listTools, type ToolsQuery } from '../../src/read-model/list-tools.js';
import { buildReadModel, type ReadModel } from '../../src/read-model/read-model.js';
import { foldFrench } from '../../src/text/french-text.js';

let model: ReadModel;
before(async () => {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  assert.ok(loaded.ok);
  model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });
});

function reference(m: ReadModel, q: ToolsQuery): { total: number; items: number[] } {
  const text = (i: number) => `${foldFrench(m.tools[i]!.name)} ${foldFrench(m.tools[i]!.short_description)}`;
  let all = [...m.tools.keys()].filter((i) => {
    const t = m.tools[i]!;
    return (
      (!q.categories || q.categories.includes(t.category)) &&
      (!q.pricing || q.pricing.includes(t.pricing.model)) &&
      (!q.educationOnly || t.education_program !== null) &&
      q.words.every((w) => text(i).includes(w))
    );
  });
  if (q.sort === 'relevance' && q.words.length > 0) {
    const phrase = q.words.join(' ');
    const tier = (i: number) => {
      const name = m.foldedNames[i]!;
      return name === phrase ? 0 : name.startsWith(phrase) ? 1 : q.words.every((w) => name.includes(w)) ? 2 : 3;
    };
    all = all.sort((a, b) => tier(a) - tier(b) || a - b);
  } else if (q.sort === '-updated_at' || q.sort === '-created_at') {
    const field = q.sort === '-updated_at' ? 'updated_at' : 'created_at';
    all = all.sort((a, b) => (m.tools[b]![field] > m.tools[a]![field] ? 1 : m.tools[b]![field] < m.tools[a]![field] ? -1 : a - b));
  }
  const start = (q.page - 1) * q.perPage;
  return { total: all.length, items: all.slice(start, start + q.perPage) };
}

test('listTools › agrees with a full scan on the bundled directory', () => {
  const words = fc.constantFrom('quiz', 'ia', 'e', 'eleve', 'video', 'cours', 'langue', 'chat', 'gpt', 'math', 'pour', 'de', 'oeuvre', 'zz', 'ecrire', 'digi', 'canva');
  const query = fc.record({
    page: fc.integer({ min: 1, max: 8 }),
    perPage: fc.integer({ min: 1, max: 100 }),
    categories: fc.option(fc.subarray([...model.categoryIndex.keys(), 'inconnue'], { minLength: 1, maxLength: 3 }), { nil: null }),
    pricing: fc.option(fc.subarray([...PRICING_MODELS], { minLength: 1 }), { nil: null }),
    educationOnly: fc.boolean(),
    words: fc.uniqueArray(words, { maxLength: 3 }),
    sort: fc.constantFrom('name', '-updated_at', '-created_at', 'relevance') as fc.Arbitrary<ToolsQuery['sort']>,
  });
  fc.assert(
    fc.property(query, (q) => {
      const sort = q.sort === 'relevance' && q.words.length === 0 ? 'name' : q.sort;
      assert.deepEqual(listTools(model, { ...q, sort }), reference(model, { ...q, sort }));
    }),
    { numRuns: 1000 },
  );
});
