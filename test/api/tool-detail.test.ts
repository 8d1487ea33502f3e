import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';

test('GET /tools/{slug} › full detail with the contract fields', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const res = await app.inject({ url: `${API}/tools/oeuvre-studio` });
  assert.equal(res.statusCode, 200);
  const { data, meta } = res.json();
  assert.equal(meta.license.name, 'CC BY 4.0');
  assert.deepEqual(Object.keys(data).sort(), [
    'category', 'collections', 'education_program', 'freshness', 'has_education_pricing', 'languages', 'link_status', 'links', 'links_checked_at', 'logo_url',
    'long_description', 'name', 'platforms', 'pricing', 'pricing_details', 'school', 'screenshot', 'short_description', 'slug', 'tags',
    'updated_at', 'website_url',
  ]);
  assert.equal(data.has_education_pricing, true);
  assert.deepEqual(data.education_program, { summary: 'Gratuit pour les enseignants et les élèves des établissements scolaires.', eligibility: ['enseignants', 'élèves'], url: null });
  assert.deepEqual(data.pricing_details, { model: 'freemium', summary: 'Une offre gratuite et des offres payantes pour les établissements.', starting_price: null, url: null });
  assert.deepEqual(data.freshness, { created_at: '2026-01-01T08:00:00Z', updated_at: '2026-01-01T08:00:00Z', last_verified_at: '2026-01-02T08:00:00Z' });
  assert.equal(data.screenshot, null);
  assert.equal(data.links_checked_at, null);
  assert.equal(data.link_status, null);
  assert.match(data.long_description, /\n\n/);
  assert.deepEqual(data.collections, [
    { slug: 'professeur-de-lettres', title: 'Professeur de lettres', links: { self: 'https://api.example.org/api/v1/directory/collections/professeur-de-lettres' } },
  ]);
  assert.ok(!('status' in data) && !('former_slugs' in data), 'internal fields never leak');
});

test('GET /tools/{slug} › education_program is null exactly when has_education_pricing is false', async (t) => {
  const { app } = await buildTestApp(t);
  const { data } = (await app.inject({ url: `${API}/tools/eleve-plus` })).json();
  assert.equal(data.has_education_pricing, false);
  assert.equal(data.education_program, null);
  assert.deepEqual(data.pricing_details.starting_price, { amount: 23, currency: 'EUR', period: 'month' });
  assert.deepEqual(data.collections, []);
});

test('GET /tools/{slug} › a renamed slug answers 301 to the canonical URL', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const res = await app.inject({ url: `${API}/tools/ecrire-plus` });
  assert.equal(res.statusCode, 301);
  assert.equal(res.headers.location, 'https://api.example.org/api/v1/directory/tools/ecrire-mieux');
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
});

test('GET /tools/{slug} › unknown, draft and malformed slugs are 404 problems with suggestions', async (t) => {
  const { app } = await buildTestApp(t);
  const unknown = await app.inject({ url: `${API}/tools/quizy` });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(unknown.headers['cache-control'], 'public, max-age=300');
  const problem = unknown.json();
  assert.equal(problem.status, 404);
  assert.deepEqual(problem.suggestions, ['quizzy']);
  assert.equal((await app.inject({ url: `${API}/tools/brouillon` })).statusCode, 404, 'a draft is 404');
  for (const path of ['..%2f..%2fetc%2fpasswd', '%2e%2e', 'Quizzy', 'quiz%00zy', 'a'.repeat(300), '%F0%9F%98%80', '__proto__', 'constructor']) {
    const res = await app.inject({ url: `${API}/tools/${path}` });
    assert.ok(res.statusCode === 404 || res.statusCode === 400 || res.statusCode === 414, `${path}: ${res.statusCode}`);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', path);
  }
});
