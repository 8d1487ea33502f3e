import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';
import { editedDataset, importAndRefresh, nextSecond, restarted } from '../helpers/follow.js';

interface ChangeBody {
  data: Array<{ kind: string; slug: string; previous_slug: string | null; name: string; revision: number; changed_at: string; links: { tool: string | null } }>;
  meta: { total: number; page: number; per_page: number; total_pages: number };
  links: { self: string; next: string | null; prev: string | null; last: string };
}

const PUBLISHED = ['atelier-quiz', 'eau-vive', 'ecole-directe-test', 'ecrire-mieux', 'eleve-plus', 'oeuvre-studio', 'quiz-master', 'quizzy', 'zebre-math'];

test('GET /changes › the first import records `created` for every published tool, never a draft', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const res = await app.inject({ url: `${API}/changes` });
  assert.equal(res.statusCode, 200);
  const body: ChangeBody = res.json();
  assert.deepEqual(body.data.map((c) => c.slug), PUBLISHED, 'in slug order within the import');
  assert.ok(body.data.every((c) => c.kind === 'created' && c.revision === 1 && c.previous_slug === null));
  assert.match(body.data[0]!.changed_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  assert.deepEqual(body.data[0]!.links, { tool: 'https://api.example.org/api/v1/directory/tools/atelier-quiz', page: 'https://api.example.org/outils/atelier-quiz' });
  assert.equal(body.data.find((c) => c.slug === 'oeuvre-studio')!.name, 'Œuvre Studio');
  assert.ok(!res.body.includes('brouillon') && !res.body.includes('Brouillon'), 'a draft appears nowhere');
  assert.equal(res.headers['x-total-count'], '9');
  assert.match(String(res.headers.link), /rel="license"/);
});

test('GET /changes › an import that unpublishes one tool and renames another shows both, oldest first; draft edits show nothing', async (t) => {
  const ctx = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  await nextSecond();
  await importAndRefresh(ctx, editedDataset());
  const body: ChangeBody = (await ctx.app.inject({ url: `${API}/changes?per_page=100` })).json();
  assert.equal(body.meta.total, 12);
  const latest = body.data.slice(9);
  assert.deepEqual(
    latest.map((c) => [c.kind, c.slug, c.previous_slug, c.revision]),
    [
      ['updated', 'eau-vive', null, 2],
      ['renamed', 'quiz-maestro', 'quiz-master', 2],
      ['unpublished', 'quizzy', null, 2],
    ],
  );
  assert.equal(latest[1]!.name, 'Quiz Maestro');
  assert.equal(latest[1]!.links.tool, 'https://api.example.org/api/v1/directory/tools/quiz-maestro');
  assert.equal(latest[2]!.links.tool, null, 'an unpublished tool has no URL to follow');
  assert.equal(latest[2]!.name, 'Quizzy', 'its last published name');
  assert.ok(latest[0]!.changed_at > body.data[0]!.changed_at);
  const all = JSON.stringify(body);
  assert.ok(!all.includes('Réécrit') && !all.includes('brouillon'), 'a draft’s edit records nothing');
  assert.ok(!all.includes('ecole-test-ancien'), 'a new former slug alone is no tool change');

  // The old slug answers 301 to the new one, as /changes says.
  const moved = await ctx.app.inject({ url: `${API}/tools/quiz-master` });
  assert.equal(moved.statusCode, 301);
  assert.equal(moved.headers.location, latest[1]!.links.tool);
});

test('GET /changes › a tool published again is `republished`; a draft published for the first time is `created`', async (t) => {
  const ctx = await buildTestApp(t);
  await importAndRefresh(ctx, editedDataset());
  const back = editedDataset();
  back.tools.find((x) => x.slug === 'quizzy')!.status = 'published';
  back.tools.find((x) => x.slug === 'brouillon')!.status = 'published';
  await importAndRefresh(ctx, back);
  const body: ChangeBody = (await ctx.app.inject({ url: `${API}/changes?per_page=100` })).json();
  assert.deepEqual(body.data.filter((c) => c.revision === 3).map((c) => [c.kind, c.slug, c.name]), [
    ['created', 'brouillon', 'Brouillon Réécrit'],
    ['republished', 'quizzy', 'Quizzy'],
  ]);
});

test('GET /changes › `since` is inclusive, takes any offset, pages like /tools, and survives a restart', async (t) => {
  const ctx = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  await nextSecond();
  await importAndRefresh(ctx, editedDataset());
  const all: ChangeBody = (await ctx.app.inject({ url: `${API}/changes?per_page=100` })).json();
  const at = all.data[9]!.changed_at;

  const since = (value: string, extra = '') => ctx.app.inject({ url: `${API}/changes?since=${encodeURIComponent(value)}${extra}` });
  const equal: ChangeBody = (await since(at)).json();
  assert.deepEqual(equal.data.map((c) => c.slug), ['eau-vive', 'quiz-maestro', 'quizzy'], 'the equal instant is included');
  const later = new Date(Date.parse(at) + 1).toISOString();
  assert.equal((await since(later)).json().meta.total, 0, 'a millisecond later: nothing');
  // The same instant written in Paris winter time, lower-case t, and with a fraction.
  const paris = new Date(Date.parse(at) + 3_600_000).toISOString().replace('.000Z', '+01:00').replace('T', 't');
  assert.equal((await since(paris)).json().meta.total, 3);
  assert.equal((await since(at.replace('Z', '.000000Z'))).json().meta.total, 3);

  const page: ChangeBody = (await since(paris, '&per_page=2')).json();
  assert.deepEqual(page.data.map((c) => c.slug), ['eau-vive', 'quiz-maestro']);
  assert.equal(page.links.self, `https://api.example.org/api/v1/directory/changes?since=${at}&page=1&per_page=2`, 'links in UTC');
  assert.equal(page.links.next, `https://api.example.org/api/v1/directory/changes?since=${at}&page=2&per_page=2`);
  const second: ChangeBody = (await ctx.app.inject({ url: page.links.next!.replace('https://api.example.org', '') })).json();
  assert.deepEqual(second.data.map((c) => c.slug), ['quizzy']);
  assert.equal(second.links.next, null);

  // A new process on the same store serves the same log (it is kept in the store).
  const again = await restarted(t, ctx);
  const restartedBody = (await again.inject({ url: `${API}/changes?per_page=100` })).body;
  assert.equal(restartedBody, JSON.stringify(all));
});

test('GET /changes › a bad `since` or paging is a 400 naming the parameter, with an example', async (t) => {
  const { app } = await buildTestApp(t);
  for (const value of ['yesterday', '2026-03-01', '2026-03-01T08:00Z', '2026-03-01T08:00:00', '2026-02-30T00:00:00Z', '1709280000']) {
    const res = await app.inject({ url: `${API}/changes?since=${encodeURIComponent(value)}` });
    assert.equal(res.statusCode, 400, value);
    const body = res.json();
    assert.equal(body.errors[0].parameter, 'since');
    assert.match(body.detail, /since doit être une date-heure RFC 3339 .*2026-11-01T00:00:00Z/);
  }
  const both = (await app.inject({ url: `${API}/changes?since=x&page=0` })).json();
  assert.deepEqual(both.errors.map((e: { parameter: string }) => e.parameter).sort(), ['page', 'since']);
  assert.equal((await app.inject({ url: `${API}/changes?since=2026-01-01T00:00:00Z&since=2026-01-02T00:00:00Z` })).statusCode, 400);
  assert.equal((await app.inject({ url: `${API}/changes?since=` })).json().meta.total, 9, 'blank is absent');
});
