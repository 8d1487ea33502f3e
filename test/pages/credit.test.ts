/**
 * The credit (issue « Catalogue II », point 8): every page names who publishes the directory and
 * links to PUBLISHER_URL, else to PUBLIC_BASE_URL (the site itself); with neither, the name
 * alone, never a placeholder address. The API's attribution, the feeds and the data package
 * follow the same setting (docs/api-decisions.md).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';

const PAGES = ['/', '/outils', '/outils/quizzy', '/comparer?outils=quizzy,eau-vive', '/collections', '/collections/creer-un-quiz', '/a-propos/logos', '/developpeurs'];
const credit = (html: string) => /<p class="credit">[\s\S]*?<\/p>|<footer>[\s\S]*?<\/footer>/.exec(html)?.[0] ?? '';

test('credit › nothing configured: every page names the publisher without a link, nowhere a placeholder address', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLISHER_URL: '' } });
  for (const url of PAGES) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 200, url);
    assert.match(credit(res.body), /Éditeur de test/, url);
    assert.doesNotMatch(credit(res.body), /<a /, `${url}: no link`);
    assert.doesNotMatch(res.body, /example\.org\/annuaire/, url);
  }
  const body = (await app.inject({ url: `${API}/tools?per_page=1` })).json();
  assert.equal(body.meta.license.attribution, 'Éditeur de test');
  // A format that needs an address points at the site itself.
  const feed = (await app.inject({ url: `${API}/feed.json` })).json();
  assert.equal(feed.home_page_url, 'http://localhost:80/');
  assert.deepEqual(feed.authors, [{ name: 'Éditeur de test', url: 'http://localhost:80/' }]);
  const pkg = (await app.inject({ url: `${API}/datapackage.json` })).json();
  assert.equal(pkg.homepage, 'http://localhost:80/');
  const openapi = (await app.inject({ url: `${API}/openapi.json` })).json();
  assert.deepEqual(openapi.info.contact, { name: 'Éditeur de test' });
});

test('credit › PUBLIC_BASE_URL alone: the credit links to the site itself; PUBLISHER_URL, when set, wins', async (t) => {
  const site = await buildTestApp(t, { env: { PUBLISHER_URL: '', PUBLIC_BASE_URL: 'https://annuaire.example.net' } });
  for (const url of PAGES) {
    assert.match(credit((await site.app.inject({ url })).body), /<a href="https:\/\/annuaire\.example\.net\/">Éditeur de test<\/a>/, url);
  }
  assert.equal((await site.app.inject({ url: `${API}/tools?per_page=1` })).json().meta.license.attribution, 'Éditeur de test — https://annuaire.example.net/');
  const publisher = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://annuaire.example.net' } });
  for (const url of PAGES) {
    assert.match(credit((await publisher.app.inject({ url })).body), /<a href="https:\/\/editeur\.example\.org">Éditeur de test<\/a>/, url);
  }
});
