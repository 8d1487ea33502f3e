import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { toolsPage, toolsPageParts } from '../../src/directory/directory-queries.js';
import { serialize, ToolListJson } from '../../src/directory/representations.js';
import { parseToolsQuery } from '../../src/directory/tools-query.js';
import { buildReadModel } from '../../src/read-model/read-model.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset } from '../helpers/fixture.js';

const NAMES = ['page', 'per_page', 'category', 'pricing', 'has_education_pricing', 'q', 'sort', 'kind', 'updated_since', 'since', 'facets', '__proto__', 'constructor', 'prototype', '_', 'toString'];
const VALUES = fc.oneof(
  fc.constantFrom('1', '0', '-1', 'Infinity', '-Infinity', 'NaN', '1e309', '0x10', '1.0', '1e3', ' 1', '99999999999999999999999', '', 'free', 'FREEMIUM', 'fremium', 'free,paid', ',', 'quiz', 'true', 'false', 'name', '-updated_at', '%', '%00', '%E9', '%ZZ', '%F0%9F%98%80', '..%2f..%2f', 'a,,b', '\u200B', 'é', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00%2B01:00', '2026-01-01T00:00:00+01:00', '9999-12-31T23:59:59-23:59', 'category,pricing', 'has_education_pricing'),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc.nat().map(String),
);
const QUERY = fc.array(fc.tuple(fc.constantFrom(...NAMES), VALUES), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const PATHS = fc.constantFrom(`${API}/tools`, `${API}/collections`, `${API}/categories`, `${API}/tools/quizzy`, `${API}/collections/creer-un-quiz`, `${API}/changes`, `${API}/feed.atom`, `${API}/export/tools.csv`);

test('property › no query string yields a 5xx, and prototypes stay untouched', async (t) => {
  const { app } = await buildTestApp(t);
  await fc.assert(
    fc.asyncProperty(PATHS, QUERY, async (path, query) => {
      const res = await app.inject({ url: `${path}?${query}` });
      assert.ok(res.statusCode < 500, `${path}?${query} → ${res.statusCode} ${res.body}`);
      assert.ok([200, 400].includes(res.statusCode), `${path}?${query} → ${res.statusCode}`);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.prototype.toString.call({}), '[object Object]');
    }),
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 10_000) },
  );
});

test('property › no path segment yields a 5xx', async (t) => {
  const { app } = await buildTestApp(t);
  const segment = fc.oneof(fc.string({ maxLength: 120 }).map(encodeURIComponent), fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent), fc.constantFrom('%2F', '%2e%2e%2f', '%', '%ZZ', '%C0%AF', '..', '.', '~', '%00'));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(`${API}/tools/`, `${API}/collections/`, `${API}/`, '/', '/assets/', '/docs/'), segment, async (prefix, seg) => {
      const res = await app.inject({ url: `${prefix}${seg}` });
      assert.ok(res.statusCode < 500, `${prefix}${seg} → ${res.statusCode} ${res.body}`);
    }),
    { numRuns: Number(process.env.PROPERTY_RUNS ?? 10_000) },
  );
});

test('property › walking `next` returns every matching tool exactly once', async (t) => {
  const { app } = await buildTestApp(t);
  const filters = fc.record({
    per_page: fc.integer({ min: 1, max: 12 }),
    category: fc.option(fc.subarray(['quiz', 'ecriture', 'sciences', 'nope'], { minLength: 1 }).map((a) => a.join(',')), { nil: undefined }),
    pricing: fc.option(fc.subarray(['free', 'freemium', 'paid', 'enterprise'], { minLength: 1 }).map((a) => a.join(',')), { nil: undefined }),
    has_education_pricing: fc.option(fc.constantFrom('1', '0'), { nil: undefined }),
    q: fc.option(fc.constantFrom('quiz', 'eleve', 'e', 'pour', 'classe', 'œuvre', 'quizy', 'cycle eau', 'mental math', 'SVT', 'messag', 'quiz eau simulation'), { nil: undefined }),
    sort: fc.option(fc.constantFrom('name', '-updated_at', '-created_at'), { nil: undefined }),
    updated_since: fc.option(fc.constantFrom('2026-02-01T08:00:00Z', '2026-01-01T09:00:00+01:00', '2026-03-01t08:00:00.5z'), { nil: undefined }),
    facets: fc.option(fc.constantFrom('pricing', 'category,has_education_pricing'), { nil: undefined }),
  });
  await fc.assert(
    fc.asyncProperty(filters, async (f) => {
      const params = new URLSearchParams(Object.entries(f).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
      const everything = new URLSearchParams(params);
      everything.set('per_page', '100');
      const all = (await app.inject({ url: `${API}/tools?${everything}` })).json();
      const seen: string[] = [];
      let url: string | null = `${API}/tools?${params}`;
      let pages = 0;
      while (url !== null) {
        const body: { data: Array<{ slug: string }>; meta: { total: number }; links: { next: string | null } } = (await app.inject({ url: url.replace(/^https?:\/\/[^/]+/, '') })).json();
        seen.push(...body.data.map((d: { slug: string }) => d.slug));
        assert.equal(body.meta.total, all.meta.total);
        url = body.links.next;
        assert.ok(++pages <= 20, 'terminates');
      }
      assert.deepEqual(seen, all.data.map((d: { slug: string }) => d.slug));
      assert.equal(new Set(seen).size, seen.length);
    }),
    { numRuns: 200 },
  );
});

test('property › a page of /tools is exactly what the schema serialiser writes for it, whatever the Host', async (t) => {
  const { app } = await buildTestApp(t);
  const request = fc.record({
    host: fc.constantFrom('a.example', 'b.example:8080', '127.0.0.1:3000'),
    q: fc.option(fc.constantFrom('quiz', 'eleve', 'classe', 'quizy', 'cycle eau', 'mental math', 'messag', 'œuvre'), { nil: undefined }),
    per_page: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    page: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    sort: fc.option(fc.constantFrom('name', '-updated_at'), { nil: undefined }),
  });
  await fc.assert(
    fc.asyncProperty(request, async ({ host, ...f }) => {
      const params = new URLSearchParams(Object.entries(f).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
      const res = await app.inject({ url: `${API}/tools?${params}`, headers: { host } });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(res.body, serialize.toolList(body));
      for (const tool of body.data) assert.ok(tool.links.self.startsWith(`http://${host}${API}/tools/`), tool.links.self);
    }),
    { numRuns: 300 },
  );
});

test('a page joined from kept summaries equals the serialised page, past the bounds of what is kept', async () => {
  const model = buildReadModel({ revision: 1, dataset: fixtureDataset(), changes: [] });
  const lists = new ToolListJson(model, { bases: 2, bytes: 1_500 });
  const license = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'Fixture' };
  fc.assert(
    fc.property(fc.constantFrom('http://a.example', 'http://b.example', 'https://c.example'), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 12 }), (base, page, perPage) => {
      const query = parseToolsQuery({ page: String(page), per_page: String(perPage) }, model.school);
      const body = toolsPage(model, query, base, license);
      assert.deepEqual(lists.serialize(toolsPageParts(model, query, base, license), base), Buffer.from(serialize.toolList(body)));
    }),
    { numRuns: 300 },
  );
});
