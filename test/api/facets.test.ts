import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ToolRecord } from '../../src/domain.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset } from '../helpers/fixture.js';

interface FacetValue { value: string | boolean; label: string; count: number; selected: boolean }
type Facets = Record<'category' | 'pricing' | 'has_education_pricing', FacetValue[]>;

const CATEGORY_NAMES: Record<string, string> = Object.fromEntries(fixtureDataset().categories.map((c) => [c.slug, c.name]));
const PRICING_LABELS: Record<string, string> = { free: 'Gratuit', freemium: 'Freemium', paid: 'Payant', enterprise: 'Entreprise' };
const collator = new Intl.Collator('fr');

test('GET /tools?facets › counts per category, pricing and education, each without its own filter', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools?facets=category,pricing,has_education_pricing&pricing=free,freemium` });
  assert.equal(res.statusCode, 200);
  const { meta } = res.json();
  assert.equal(meta.total, 7);
  assert.deepEqual(meta.facets, {
    // By count, ties in French collation of the name.
    category: [
      { value: 'quiz', label: 'Quiz et interaction', count: 3, selected: false },
      { value: 'sciences', label: 'Sciences', count: 3, selected: false },
      { value: 'ecriture', label: 'Écriture', count: 1, selected: false },
    ],
    // Its own filter (free,freemium) ignored: paid and enterprise show what choosing them would give.
    pricing: [
      { value: 'free', label: 'Gratuit', count: 1, selected: true },
      { value: 'freemium', label: 'Freemium', count: 6, selected: true },
      { value: 'paid', label: 'Payant', count: 1, selected: false },
      { value: 'enterprise', label: 'Entreprise', count: 1, selected: false },
    ],
    has_education_pricing: [{ value: true, label: 'Avec offre éducation', count: 3, selected: false }],
  });
});

test('GET /tools?facets › zero counts: pricing and education always listed, a category only when selected', async (t) => {
  const { app } = await buildTestApp(t);
  const { meta } = (await app.inject({ url: `${API}/tools?facets=pricing,category,has_education_pricing&category=vide&q=zebre` })).json();
  assert.equal(meta.total, 0);
  assert.deepEqual(meta.facets.category, [
    { value: 'sciences', label: 'Sciences', count: 1, selected: false },
    { value: 'vide', label: 'Catégorie vide', count: 0, selected: true },
  ]);
  assert.deepEqual(meta.facets.pricing.map((v: FacetValue) => v.count), [0, 0, 0, 0]);
  assert.deepEqual(meta.facets.has_education_pricing, [{ value: true, label: 'Avec offre éducation', count: 0, selected: false }]);
  const one = (await app.inject({ url: `${API}/tools?facets=pricing` })).json().meta.facets;
  assert.deepEqual(Object.keys(one), ['pricing'], 'only the facets asked for');
});

test('GET /tools?facets › without `facets` the body is byte for byte what it was; links keep `facets`', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const plain = await app.inject({ url: `${API}/tools?per_page=2&pricing=free,freemium` });
  assert.ok(!plain.body.includes('facets'));
  const faceted = (await app.inject({ url: `${API}/tools?per_page=2&pricing=free,freemium&facets=has_education_pricing,pricing` })).json();
  const { facets, ...meta } = faceted.meta;
  assert.ok(facets);
  assert.equal(JSON.stringify({ ...faceted, meta, links: plain.json().links }), plain.body, 'the same fields, in the same order, minus meta.facets');
  assert.equal(faceted.links.next, 'https://api.example.org/api/v1/directory/tools?pricing=free,freemium&facets=pricing,has_education_pricing&page=2&per_page=2');
});

test('GET /tools?facets › an unknown facet is a 400 with a suggestion; blank is none', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools?facets=pricing,categroy` });
  assert.equal(res.statusCode, 400);
  const body = res.json();
  assert.equal(body.errors[0].parameter, 'facets');
  assert.equal(body.errors[0].suggestion, 'category');
  assert.match(body.detail, /vouliez-vous dire « category » \?/);
  assert.equal((await app.inject({ url: `${API}/tools?facets=pricng` })).json().errors[0].suggestion, 'pricing');
  assert.equal((await app.inject({ url: `${API}/tools?facets=a&facets=b` })).statusCode, 400, 'given twice');
  assert.equal((await app.inject({ url: `${API}/tools?facets=` })).json().meta.facets, undefined);
});

/**
 * Property: every facet count equals a brute-force count over the fixture's published tools
 * for random filter combinations, search included. The search's own matches come from the
 * API (`q` alone), so this checks the counting, whatever the search engine is.
 */
test('property › facet counts equal a brute-force count over the fixture, for random filters and searches', async (t) => {
  const { app } = await buildTestApp(t);
  const published = fixtureDataset().tools.filter((x) => x.status === 'published');
  const searchCache = new Map<string, Set<string>>();
  const searched = async (q: string | undefined): Promise<Set<string> | null> => {
    if (q === undefined) return null;
    if (!searchCache.has(q)) {
      const body = (await app.inject({ url: `${API}/tools?per_page=100&q=${encodeURIComponent(q)}` })).json();
      searchCache.set(q, new Set(body.data.map((d: { slug: string }) => d.slug)));
    }
    return searchCache.get(q)!;
  };
  const filters = fc.record({
    category: fc.option(fc.subarray(['quiz', 'ecriture', 'sciences', 'vide', 'nope'], { minLength: 1 }), { nil: undefined }),
    pricing: fc.option(fc.subarray(['free', 'freemium', 'paid', 'enterprise'], { minLength: 1 }), { nil: undefined }),
    education: fc.boolean(),
    q: fc.option(fc.constantFrom('quiz', 'eleve', 'e', 'pour', 'classe', 'œuvre', 'zzz'), { nil: undefined }),
    updated_since: fc.option(fc.constantFrom('2026-01-01T08:00:00Z', '2026-01-01T08:00:01Z', '2026-02-01T09:00:00+01:00', '2026-03-01T08:00:00Z', '2030-01-01T00:00:00Z'), { nil: undefined }),
  });
  await fc.assert(
    fc.asyncProperty(filters, async (f) => {
      const params = new URLSearchParams({ facets: 'category,pricing,has_education_pricing', per_page: '1' });
      if (f.category) params.set('category', f.category.join(','));
      if (f.pricing) params.set('pricing', f.pricing.join(','));
      if (f.education) params.set('has_education_pricing', '1');
      if (f.q) params.set('q', f.q);
      if (f.updated_since) params.set('updated_since', f.updated_since);
      const res = await app.inject({ url: `${API}/tools?${params}` });
      assert.equal(res.statusCode, 200, res.body);
      const { meta } = res.json() as { meta: { total: number; facets: Facets } };

      const found = await searched(f.q);
      const since = f.updated_since ? Date.parse(f.updated_since) : null;
      const keep = (x: ToolRecord, ignore: 'category' | 'pricing' | 'education' | null) =>
        (ignore === 'category' || !f.category || f.category.includes(x.category)) &&
        (ignore === 'pricing' || !f.pricing || f.pricing.includes(x.pricing.model)) &&
        (ignore === 'education' || !f.education || x.education_program !== null) &&
        (since === null || Date.parse(x.updated_at) >= since) &&
        (found === null || found.has(x.slug));
      assert.equal(meta.total, published.filter((x) => keep(x, null)).length, 'total');

      const categoryCounts = new Map<string, number>();
      for (const x of published.filter((x) => keep(x, 'category'))) categoryCounts.set(x.category, (categoryCounts.get(x.category) ?? 0) + 1);
      const expectedCategories = Object.keys(CATEGORY_NAMES)
        .map((slug) => ({ value: slug, label: CATEGORY_NAMES[slug]!, count: categoryCounts.get(slug) ?? 0, selected: f.category?.includes(slug) ?? false }))
        .filter((v) => v.count > 0 || v.selected)
        .sort((a, b) => b.count - a.count || collator.compare(a.label, b.label));
      assert.deepEqual(meta.facets.category, expectedCategories, 'category');

      assert.deepEqual(
        meta.facets.pricing,
        Object.keys(PRICING_LABELS).map((p) => ({
          value: p,
          label: PRICING_LABELS[p],
          count: published.filter((x) => keep(x, 'pricing') && x.pricing.model === p).length,
          selected: f.pricing?.includes(p) ?? false,
        })),
        'pricing',
      );
      assert.deepEqual(
        meta.facets.has_education_pricing,
        [{ value: true, label: 'Avec offre éducation', count: published.filter((x) => keep(x, 'education') && x.education_program !== null).length, selected: f.education }],
        'has_education_pricing',
      );
    }),
    { numRuns: 300 },
  );
});
