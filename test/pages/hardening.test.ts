/**
 * The catalogue's pages under hostile or odd requests (issue « Hardening IV »): a page is
 * cached under exactly what it reads, errors stay out of the cache, pages have their own
 * rate-limit budget answered in French HTML, no built-in property reaches a label, every
 * applied filter is visible and removable, control and bidi characters never reach the
 * page, responses chosen by Accept say so, and a page past the last is a 404.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import fc from 'fast-check';
import { API, buildTestApp } from '../helpers/build-app.js';
import { send } from '../helpers/http.js';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const countOf = (html: string) => Number(/(\d+) outils?\b/.exec(text(html))?.[1] ?? NaN);

test('/outils cache › a refused or differently read query never changes what a plain request gets, and back', async (t) => {
  const { app } = await buildTestApp(t);
  const plain = await app.inject({ url: '/outils' });
  const total = countOf(plain.body);
  assert.ok(total > 1);
  // A bad sort is refused, or ignored; either way the plain page is the same afterwards.
  for (const url of ['/outils?sort=zzz', '/outils?facets=zzz', '/outils?updated_since=2999-01-01T00:00:00Z', '/outils?updated_since=zzz', '/outils?sort=-updated_at']) {
    await app.inject({ url });
    const again = await app.inject({ url: '/outils' });
    assert.equal(again.statusCode, 200, `after ${url}`);
    assert.equal(again.body, plain.body, `after ${url}`);
  }
  // And the other way round: what the page applies is never answered by another page's bytes.
  const quiz = await app.inject({ url: '/outils?q=quiz' });
  await app.inject({ url: '/outils?q=quiz&updated_since=2999-01-01T00:00:00Z' });
  assert.equal((await app.inject({ url: '/outils?q=quiz' })).body, quiz.body);
  const byName = await app.inject({ url: '/outils?sort=name' });
  const recent = await app.inject({ url: '/outils?sort=-updated_at' });
  const order = (html: string) => [...html.matchAll(/<h3[^>]*><a href="\/outils\/([^"]+)"/g)].map((m) => m[1]);
  assert.notDeepEqual(order(recent.body), order(byName.body), 'sort is applied, so it is part of the key');
  assert.deepEqual(order((await app.inject({ url: '/outils' })).body), order(byName.body));
});

test('/outils cache › an error page is answered but never kept: the same bad request is rendered again', async (t) => {
  const { app } = await buildTestApp(t);
  const bad = await app.inject({ url: '/outils?level=nulle-part' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /level/);
  // The plain page, rendered after it, is the plain page.
  assert.equal((await app.inject({ url: '/outils' })).statusCode, 200);
});

test('pages › their own budget (PAGE_RATE_LIMIT_MAX): views do not spend the API’s, and over it a French HTML 429 with Retry-After', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '3', PAGE_RATE_LIMIT_MAX: '5' } });
  for (let i = 0; i < 5; i++) assert.equal((await app.inject({ url: i % 2 ? '/outils' : '/' })).statusCode, 200, `page view ${i + 1}`);
  // The API's budget is untouched by the five views.
  for (let i = 0; i < 3; i++) assert.equal((await app.inject({ url: `${API}/categories` })).statusCode, 200, `API call ${i + 1}`);
  assert.equal((await app.inject({ url: `${API}/categories` })).statusCode, 429);
  const refused = await app.inject({ url: '/outils?q=quiz', headers: { accept: 'text/html' } });
  assert.equal(refused.statusCode, 429);
  assert.match(String(refused.headers['content-type']), /^text\/html/);
  assert.equal(refused.headers['cache-control'], 'no-store');
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  assert.match(refused.body, /<html lang="fr">/);
  assert.match(text(refused.body), /Trop de pages/);
  assert.equal(refused.headers['ratelimit-limit'], '5');
  // Static files stay outside any count.
  const home = await buildTestApp(t, { env: { PAGE_RATE_LIMIT_MAX: '1' } });
  const first = await home.app.inject({ url: '/' });
  const css = /href="(\/assets\/site\.[^"]+\.css)"/.exec(first.body)![1]!;
  for (let i = 0; i < 3; i++) assert.equal((await home.app.inject({ url: css })).statusCode, 200);
  assert.equal((await home.app.inject({ url: '/' })).statusCode, 429);
});

test('pages › PAGE_RATE_LIMIT_MAX=0 turns the pages’ limit off; a bad value stops the start naming it', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '1', PAGE_RATE_LIMIT_MAX: '0' } });
  for (let i = 0; i < 10; i++) assert.equal((await app.inject({ url: '/outils' })).statusCode, 200);
  const { loadConfig } = await import('../../src/config.js');
  assert.throws(() => loadConfig({ PAGE_RATE_LIMIT_MAX: 'beaucoup' }), /PAGE_RATE_LIMIT_MAX/);
  assert.equal(loadConfig({}).pageRateLimit.max >= 1000, true, 'a default a school behind one address does not reach');
});

test('pages › over the budget on a real socket (the fast path too): the refusal is the same French HTML page', async (t) => {
  const { app } = await buildTestApp(t, { env: { PAGE_RATE_LIMIT_MAX: '2' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  assert.equal((await send(port, '/outils')).status, 200);
  assert.equal((await send(port, '/outils')).status, 200, 'the second is answered by the fast path');
  const refused = await send(port, '/outils');
  assert.equal(refused.status, 429);
  assert.match(String(refused.headers['content-type']), /^text\/html/);
  assert.match(refused.body.toString(), /Trop de pages/);
  // The API's own budget is still whole.
  assert.equal((await send(port, `${API}/categories`)).status, 200);
});

test('labels › a value naming a built-in property (constructor, __proto__, toString…) is never read as a label', async (t) => {
  const { app } = await buildTestApp(t);
  const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'];
  const params = ['pricing', 'pupil_account', 'generative_ai', 'pupil_use', 'trains_on_user_data', 'data_location', 'institutional_access', 'level', 'subject', 'category', 'age', 'offline', 'open_source', 'has_education_pricing', 'platform', 'language', 'tag', 'sort', 'q'];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...params), fc.constantFrom(...names), async (param, name) => {
      const res = await app.inject({ url: `/outils?${param}=${encodeURIComponent(name)}` });
      assert.ok(res.statusCode < 500);
      assert.doesNotMatch(res.body, /native code|function [A-Za-z]*\(|\[object /, `${param}=${name}`);
    }),
    { numRuns: 60 },
  );
  for (const url of ['/outils/constructor', '/collections/__proto__', '/outils/toString']) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 404);
    assert.doesNotMatch(res.body, /native code/);
  }
});

test('/outils › every filter the page applies is shown and removable; a filtered or searched page is not indexed', async (t) => {
  const { app } = await buildTestApp(t);
  const cases: Array<[string, RegExp]> = [
    ['pupil_use=independent', /Usage par les élèves : /],
    ['trains_on_user_data=no', /Entraînement/],
    ['data_location=eu', /Données : /],
    ['platform=web', /Plateforme : /],
    ['language=fr', /Langue : /],
    ['tag=quiz', /Étiquette : quiz/],
  ];
  for (const [query, label] of cases) {
    const res = await app.inject({ url: `/outils?${query}` });
    assert.equal(res.statusCode, 200, query);
    const chips = /<ul class="chips"[\s\S]*?<\/ul>/.exec(res.body)?.[0] ?? '';
    assert.match(text(chips), label, `${query} has a chip`);
    assert.match(chips, /href="\/outils"/, `${query} can be removed`);
    assert.match(res.body, /<meta name="robots" content="noindex">/, query);
  }
  const unknownTag = await app.inject({ url: '/outils?tag=zzzz' });
  assert.doesNotMatch(text(unknownTag.body), /essayez d’autres mots/);
  assert.match(text(unknownTag.body), /Étiquette : zzzz/);
  for (const url of ['/outils?q=quiz', '/outils?sort=-updated_at', '/outils?page=2&per_page=1']) {
    assert.match((await app.inject({ url })).body, /<meta name="robots" content="noindex">/, url);
  }
  assert.doesNotMatch((await app.inject({ url: '/outils' })).body, /noindex/);
});

test('/outils › control, bidi and zero-width characters never reach the page', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/outils?q=%E2%80%AEquiz%E2%80%AC%E2%81%A6x%00y%E2%80%8B&tag=%E2%80%AEa%E2%80%8Bb' });
  assert.ok(res.statusCode < 500);
  assert.doesNotMatch(res.body, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u);
  assert.match(res.body, /quiz/);
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 30 }), async (s) => {
      const r = await app.inject({ url: `/outils?q=${encodeURIComponent(s)}` });
      assert.ok(r.statusCode < 500);
      assert.doesNotMatch(r.body, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u);
    }),
    { numRuns: 80 },
  );
});

test('unknown paths › the HTML and the JSON 404 both name Accept in Vary', async (t) => {
  const { app } = await buildTestApp(t);
  const html = await app.inject({ url: '/nulle-part', headers: { accept: 'text/html' } });
  const json = await app.inject({ url: '/nulle-part' });
  assert.equal(html.statusCode, 404);
  assert.equal(json.statusCode, 404);
  for (const res of [html, json]) assert.match(String(res.headers.vary), /\bAccept\b(?!-)/i);
  assert.match(String(json.headers.vary), /Accept-Language/);
});

test('/outils › a page beyond the last is a 404 that links to the first page of the same search', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/outils?q=quiz&page=99999' });
  assert.equal(res.statusCode, 404);
  assert.match(res.body, /href="\/outils\?q=quiz"/);
  assert.equal((await app.inject({ url: '/outils?q=quiz&page=1' })).statusCode, 200);
  // An empty search has one page, its first, which stays a 200.
  assert.equal((await app.inject({ url: '/outils?q=zzzzqqqq' })).statusCode, 200);
  assert.equal((await app.inject({ url: '/outils?q=zzzzqqqq&page=2' })).statusCode, 404);
});

test('pages › each header once (X-Content-Type-Options)', async (t) => {
  const { app } = await buildTestApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  for (const path of ['/', '/outils', '/outils/quizzy', '/collections']) {
    for (let i = 0; i < 2; i++) {
      const res = await send(port, path);
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', `${path}: one value, not a list`);
    }
  }
});

test('/outils › one choice « sans compte personnel » covers no account and a class code, and stays chosen', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/outils?pupil_account=class_code,none' });
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<option value="none,class_code" selected>Sans compte personnel/);
  const api = (await app.inject({ url: `${API}/tools?pupil_account=none,class_code&per_page=100` })).json();
  assert.equal(countOf(res.body), api.meta.total);
  assert.doesNotMatch(res.body, /<option value="none" selected>/);
});
