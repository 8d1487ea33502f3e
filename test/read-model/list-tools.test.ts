/**
 * listTools (bitsets, partial ordering, paging) against a naive reference that scans every
 * tool, on the bundled directory: same total, same page, for random queries. What the
 * search finds, and in which order, is the search's own business (test/search/); here its
 * answer is taken as given and the reference checks what listTools does around it.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import fc from 'fast-check';
import { loadContent } from '../../src/content/load-content.js';
import { PRICING_MODELS } from '../../src/domain.js';
import { listTools, type ToolsQuery } from '../../src/read-model/list-tools.js';
import { buildReadModel, type ReadModel } from '../../src/read-model/read-model.js';

let model: ReadModel;
before(async () => {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  assert.ok(loaded.ok);
  model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });
});

function reference(m: ReadModel, q: ToolsQuery): { total: number; items: number[] } {
  const found = q.q === null ? null : m.search.search(q.q);
  const base = found === null ? [...m.tools.keys()] : q.sort === 'relevance' ? [...found.ranked] : [...found.ranked].sort((a, b) => a - b);
  let all = base.filter((i) => {
    const t = m.tools[i]!;
    return (
      (!q.categories || q.categories.includes(t.category)) &&
      (!q.pricing || q.pricing.includes(t.pricing.model)) &&
      (!q.educationOnly || t.education_program !== null)
    );
  });
  if (q.sort === '-updated_at' || q.sort === '-created_at') {
    const field = q.sort === '-updated_at' ? 'updated_at' : 'created_at';
    all = all.sort((a, b) => (m.tools[b]![field] > m.tools[a]![field] ? 1 : m.tools[b]![field] < m.tools[a]![field] ? -1 : a - b));
  }
  const start = (q.page - 1) * q.perPage;
  return { total: all.length, items: all.slice(start, start + q.perPage) };
}

test('listTools › agrees with a full scan on the bundled directory', () => {
  const words = fc.constantFrom('quiz', 'ia', 'e', 'eleve', 'video', 'cours', 'langue', 'chat', 'gpt', 'math', 'pour', 'de', 'oeuvre', 'zz', 'ecrire', 'digi', 'canva', 'TBI', 'kahot');
  const query = fc.record({
    page: fc.integer({ min: 1, max: 8 }),
    perPage: fc.integer({ min: 1, max: 100 }),
    categories: fc.option(fc.subarray([...model.categoryIndex.keys(), 'inconnue'], { minLength: 1, maxLength: 3 }), { nil: null }),
    pricing: fc.option(fc.subarray([...PRICING_MODELS], { minLength: 1 }), { nil: null }),
    educationOnly: fc.boolean(),
    q: fc.uniqueArray(words, { maxLength: 3 }).map((w) => (w.length === 0 ? null : w.join(' '))),
    sort: fc.constantFrom('name', '-updated_at', '-created_at', 'relevance') as fc.Arbitrary<ToolsQuery['sort']>,
  });
  fc.assert(
    fc.property(query, (q) => {
      const sort = q.sort === 'relevance' && q.q === null ? 'name' : q.sort;
      assert.deepEqual(listTools(model, { ...q, sort }), reference(model, { ...q, sort }));
    }),
    { numRuns: 1000 },
  );
});
