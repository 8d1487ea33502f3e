/**
 * facetCounts (bitsets) against a brute-force count on the bundled directory (17
 * categories, 440+ tools), for random filter combinations. The search's matches come from
 * `searchMatches`, the one function the list and the facets share, so this checks the
 * counting, not the search.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import fc from 'fast-check';
import { loadContent } from '../../src/content/load-content.js';
import { PRICING_MODELS } from '../../src/domain.js';
import { facetCounts } from '../../src/read-model/facets.js';
import { listTools, searchMatches, type ToolsQuery } from '../../src/read-model/list-tools.js';
import { buildReadModel, type ReadModel } from '../../src/read-model/read-model.js';

let model: ReadModel;
before(async () => {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  assert.ok(loaded.ok);
  model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });
});

test('property › facet counts equal a brute-force count on the bundled directory', () => {
  const dates = () => [...new Set(model.tools.map((t) => Date.parse(t.updated_at)))];
  const query = fc.record({
    categories: fc.option(fc.subarray([...model.categoryIndex.keys(), 'nope'], { minLength: 1, maxLength: 4 }).map((a) => [...a].sort()), { nil: null }),
    pricing: fc.option(fc.subarray([...PRICING_MODELS], { minLength: 1 }), { nil: null }),
    educationOnly: fc.boolean(),
    q: fc.constantFrom(null, 'quiz', 'ia', 'eleve', 'ecrire texte', 'classe', 'zzzz', 'quizy', 'cycle eau'),
    updatedSince: fc.option(fc.oneof(fc.constantFrom(...dates()), fc.integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2027-01-01T00:00:00Z') })), { nil: null }),
  });
  fc.assert(
    fc.property(query, (partial) => {
      const q: ToolsQuery = { ...partial, page: 1, perPage: 1, sort: 'name' };
      const found = searchMatches(model, q);
      const keep = (i: number, ignore: string | null) => {
        const t = model.tools[i]!;
        return (
          (ignore === 'category' || !q.categories || q.categories.includes(t.category)) &&
          (ignore === 'pricing' || !q.pricing || q.pricing.includes(t.pricing.model)) &&
          (ignore === 'education' || !q.educationOnly || t.education_program !== null) &&
          (q.updatedSince == null || Date.parse(t.updated_at) >= q.updatedSince) &&
          (found === null || found.has(i))
        );
      };
      const all = [...model.tools.keys()];
      assert.equal(listTools(model, q).total, all.filter((i) => keep(i, null)).length);
      const facets = facetCounts(model, q, ['category', 'pricing', 'has_education_pricing']);
      for (const v of facets.category!) {
        assert.equal(v.count, all.filter((i) => keep(i, 'category') && model.tools[i]!.category === v.value).length, `category ${v.value}`);
      }
      const listed = new Set(facets.category!.map((v) => v.value));
      for (const [slug] of model.categoryIndex) {
        const count = all.filter((i) => keep(i, 'category') && model.tools[i]!.category === slug).length;
        assert.equal(listed.has(slug), count > 0 || (q.categories?.includes(slug) ?? false), `category ${slug} listed`);
      }
      for (const v of facets.pricing!) assert.equal(v.count, all.filter((i) => keep(i, 'pricing') && model.tools[i]!.pricing.model === v.value).length, `pricing ${v.value}`);
      assert.equal(facets.has_education_pricing![0]!.count, all.filter((i) => keep(i, 'education') && model.tools[i]!.education_program !== null).length);
    }),
    { numRuns: 500 },
  );
});
