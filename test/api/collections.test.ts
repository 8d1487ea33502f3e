import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';

test('GET /collections › published collections, by kind then title, drafts hidden', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const res = await app.inject({ url: `${API}/collections` });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.meta.total, 2);
  assert.equal(body.meta.license.name, 'CC BY 4.0');
  assert.deepEqual(body.data[0], {
    slug: 'creer-un-quiz',
    title: 'Créer un quiz',
    kind: 'top',
    task: 'Créer un quiz',
    persona: null,
    description: 'Les meilleurs outils pour créer un quiz en classe, du plus simple au plus complet.',
    tool_count: 2,
    updated_at: '2026-05-01T08:00:00Z',
    links: { self: 'https://api.example.org/api/v1/directory/collections/creer-un-quiz' },
  });
  assert.equal(body.data[1].kind, 'stack');
  assert.equal(body.data[1].persona, 'Professeur de lettres');
  assert.equal(body.data[1].task, null);
});

test('GET /collections › kind filter, and a clear 400 for a bad kind', async (t) => {
  const { app } = await buildTestApp(t);
  const stacks = (await app.inject({ url: `${API}/collections?kind=stack` })).json();
  assert.deepEqual(stacks.data.map((c: { slug: string }) => c.slug), ['professeur-de-lettres']);
  const bad = await app.inject({ url: `${API}/collections?kind=tops` });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().errors[0].parameter, 'kind');
  assert.equal(bad.json().errors[0].suggestion, 'top');
  assert.equal((await app.inject({ url: `${API}/collections?kind=top&kind=stack` })).statusCode, 400);
});

test('GET /collections/{slug} › tools in editorial order with notes, drafts skipped', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/collections/creer-un-quiz` });
  assert.equal(res.statusCode, 200);
  const { data } = res.json();
  assert.equal(data.tool_count, 2);
  assert.deepEqual(
    data.tools.map((i: { position: number; note: string; tool: { slug: string } }) => [i.position, i.tool.slug, i.note]),
    [
      [1, 'quizzy', 'Le plus simple pour commencer, gratuit pour les enseignants.'],
      [2, 'quiz-master', 'Pour projeter un quiz en classe entière avec un minuteur.'],
    ],
  );
  assert.equal(data.tools[0].tool.category.slug, 'quiz');
});

test('GET /collections/{slug} › unknown or draft collection is 404 with suggestions', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/collections/creer-un-quizz` });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json().suggestions, ['creer-un-quiz']);
  assert.equal((await app.inject({ url: `${API}/collections/collection-brouillon` })).statusCode, 404);
});

test('GET /categories › every category with its published-tool count, by name', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const res = await app.inject({ url: `${API}/categories` });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.deepEqual(
    body.data.map((c: { slug: string; tool_count: number }) => [c.slug, c.tool_count]),
    [['vide', 0], ['ecriture', 3], ['quiz', 3], ['sciences', 3]],
  );
  assert.equal(body.data[1].links.tools, 'https://api.example.org/api/v1/directory/tools?category=ecriture');
  assert.equal(body.meta.total, 4);
});
