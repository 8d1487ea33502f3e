/**
 * The HTML pages (/docs, /) and their files, through `inject`: the exact CSP, caching,
 * compression, outside-the-limit assets, and no URL in the HTML pointing to another host.
 * test/browser/pages.test.ts loads the same pages in Chromium.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset } from '../helpers/fixture.js';

const BUNDLE = /<script src="(\/assets\/scalar\.[A-Za-z0-9_-]{16}\.js)"><\/script>/;
const STYLESHEET = /<link rel="stylesheet" href="(\/assets\/home\.[A-Za-z0-9_-]{16}\.css)">/;

/** Every URL an attribute of `html` names (src, href, action, …), with its attribute. */
function attributeUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href|action|data|poster|srcset|formaction)\s*=\s*"([^"]*)"/gi)].map((m) => m[1]!);
}

/** URLs in `html` that the browser would load by itself (scripts, styles, images, frames...). */
function loadedUrls(html: string): string[] {
  const fromTags = [...html.matchAll(/<(script|img|iframe|link|source|video|audio|embed|object)\b[^>]*>/gi)].flatMap((m) => {
    const tag = m[0];
    if (/^<link/i.test(tag) && !/rel="(?:stylesheet|icon|preload|modulepreload|manifest|prefetch)"/i.test(tag)) return [];
    return attributeUrls(tag);
  });
  const fromCss = [...html.matchAll(/url\(([^)]*)\)|@import\s+["']([^"']+)/gi)].map((m) => m[1] ?? m[2]!);
  return [...fromTags, ...fromCss];
}

function sameOrigin(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

async function scriptAndPolicy(app: FastifyInstance) {
  const res = await app.inject({ url: '/docs' });
  assert.equal(res.statusCode, 200);
  const inline = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>|<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? m[2]!);
  return { res, inline };
}

test('GET /docs › an HTML page loading only our fingerprinted bundle, with a CSP naming the hash of its inline script', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '3', PAGE_RATE_LIMIT_MAX: '5' } });
  const { res, inline } = await scriptAndPolicy(app);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(res.body, /^<!doctype html>\s*<html lang="fr">/i);
  assert.equal(inline.length, 1, 'one inline script: the initialisation');
  const config = JSON.parse(/createApiReference\('#app', (\{[\s\S]*\})\)/.exec(inline[0]!)![1]!);
  assert.equal(config.url, `${API}/openapi.json`);
  assert.equal(config.withDefaultFonts, false);
  assert.equal(config.telemetry, false);
  assert.equal(config.showDeveloperTools, 'never');
  assert.deepEqual(config.agent, { disabled: true });
  const hash = createHash('sha256').update(inline[0]!).digest('base64');
  assert.equal(
    res.headers['content-security-policy'],
    `default-src 'none'; script-src 'self' 'sha256-${hash}'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );
  assert.doesNotMatch(String(res.headers['content-security-policy']), /script-src[^;]*unsafe-inline/);
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  assert.match(String(res.headers.etag), /^W\/"/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  // The page itself is counted, in the pages' budget (a person reads it); only its files are not.
  assert.equal(res.headers['ratelimit-limit'], '5');
  const urls = loadedUrls(res.body);
  assert.ok(urls.length > 0);
  assert.deepEqual(urls.filter((u) => !sameOrigin(u)), [], 'every file the page loads is ours');
  assert.deepEqual(attributeUrls(res.body).filter((u) => /^[a-z]+:|^\/\//i.test(u)), [], 'no absolute URL at all');
  // The same page on the trailing-slash spelling and on HEAD.
  assert.equal((await app.inject({ url: '/docs/' })).body, res.body);
  const head = await app.inject({ method: 'HEAD', url: '/docs' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers['content-length'], res.headers['content-length']);
  const revalidated = await app.inject({ url: '/docs', headers: { 'if-none-match': String(res.headers.etag) } });
  assert.equal(revalidated.statusCode, 304);
});

test('GET /assets/scalar.<hash>.js › immutable, precompressed br and gzip, 304, outside the rate limit', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_S: '60' } });
  const page = await app.inject({ url: '/docs' });
  const path = BUNDLE.exec(page.body)![1]!;
  const identity = await app.inject({ url: path });
  assert.equal(identity.statusCode, 200);
  assert.equal(identity.headers['content-type'], 'application/javascript; charset=utf-8');
  assert.equal(identity.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(identity.headers.vary, 'Accept-Encoding');
  assert.equal(identity.headers['content-encoding'], undefined);
  const body = identity.rawPayload;
  assert.ok(body.length > 1_000_000, 'the Scalar bundle');
  const fingerprint = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  assert.equal(path, `/assets/scalar.${fingerprint}.js`, 'named by its content');
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) assert.equal(identity.headers[h], undefined, h);

  const br = await app.inject({ url: path, headers: { 'accept-encoding': 'gzip, deflate, br' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(br.rawPayload.length < body.length / 3, `br ${br.rawPayload.length} bytes`);
  assert.ok(brotliDecompressSync(br.rawPayload).equals(body));
  assert.equal(br.headers['content-length'], String(br.rawPayload.length));
  const gz = await app.inject({ url: path, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(gz.rawPayload).equals(body));
  const cached = await app.inject({ url: path, headers: { 'if-none-match': String(identity.headers.etag) } });
  assert.equal(cached.statusCode, 304);
  assert.equal(cached.rawPayload.length, 0);
  const head = await app.inject({ method: 'HEAD', url: path, headers: { 'accept-encoding': 'br' } });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers['content-length'], br.headers['content-length']);

  // Seven asset requests went through with a limit of 2; the API itself is still limited:
  // the page spent the pages' budget, not the API's, so two more are allowed, then 429.
  assert.equal((await app.inject({ url: `${API}/categories` })).statusCode, 200);
  assert.equal((await app.inject({ url: `${API}/categories` })).statusCode, 200);
  const refused = await app.inject({ url: `${API}/categories` });
  assert.equal(refused.statusCode, 429);
  assert.equal((await app.inject({ url: path })).statusCode, 200, 'assets still served to a client over its limit');
  // An unknown asset name is a counted 404 problem, not an open door.
  const unknown = await app.inject({ url: '/assets/scalar.AAAAAAAAAAAAAAAA.js' });
  assert.equal(unknown.statusCode, 429);
});

test('GET /assets/<unknown> › a 404 problem', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/assets/nothing.js' });
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(res.json().status, 404);
});

test('GET /developpeurs › French page for developers with the counts of the current revision, every link ours, values escaped, strict CSP', async (t) => {
  const dataset = fixtureDataset();
  const { app, config } = await buildTestApp(t, { dataset, env: { PUBLISHER_NAME: 'Éditeur <b>"test"</b> & Cie', RATE_LIMIT_MAX: '50' } });
  const res = await app.inject({ url: '/developpeurs', headers: { 'accept-encoding': 'br' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.headers['content-encoding'], 'br');
  const html = brotliDecompressSync(res.rawPayload).toString('utf8');
  assert.equal(
    res.headers['content-security-policy'],
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  assert.match(String(res.headers.link), /<https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/>; rel="license"/);
  assert.match(html, /<html lang="fr">/);
  assert.match(html, /<p class="en" lang="en">A public, read-only JSON API/);
  assert.doesNotMatch(html, /<script/i, 'no script on the home page');

  // The counts are those the API gives for the same revision.
  const tools = (await app.inject({ url: `${API}/tools?per_page=1` })).json().meta.total;
  const collections = (await app.inject({ url: `${API}/collections` })).json().meta.total;
  const categories = (await app.inject({ url: `${API}/categories` })).json().data.length;
  const counts = Object.fromEntries([...html.matchAll(/<dt>([^<]+)<\/dt><dd>([^<]+)<\/dd>/g)].map((m) => [m[1], Number(m[2]!.replace(/\s/g, ''))]));
  assert.deepEqual(counts, { 'outils publiés': tools, collections, catégories: categories });

  const hrefs = attributeUrls(html);
  for (const expected of [
    '/docs',
    `${API}/openapi.json`,
    '/llms.txt',
    `${API}/feed.atom`,
    `${API}/feed.json`,
    `${API}/export/tools.ndjson`,
    `${API}/export/tools.csv`,
    `${API}/datapackage.json`,
    'https://creativecommons.org/licenses/by/4.0/',
  ]) assert.ok(hrefs.includes(expected), `links ${expected}`);
  assert.deepEqual(loadedUrls(html).filter((u) => !sameOrigin(u)), [], 'everything the page loads is ours');
  assert.ok(STYLESHEET.test(html));

  // Escaped everywhere it appears, and quoted exactly in the attribution.
  assert.doesNotMatch(html, /<b>/);
  assert.match(html, /Éditeur &lt;b&gt;&quot;test&quot;&lt;\/b&gt; &amp; Cie/);
  assert.ok(html.includes(`Source : Éditeur &lt;b&gt;&quot;test&quot;&lt;/b&gt; &amp; Cie — ${config.publisher.url}, sous licence CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)`));

  const css = await app.inject({ url: STYLESHEET.exec(html)![1]!, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(css.statusCode, 200);
  assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(css.headers['content-encoding'], 'gzip');
  assert.equal(css.headers['ratelimit-limit'], undefined);
});

test('GET /developpeurs › follows a new revision: the counts change with an import', async (t) => {
  const dataset = fixtureDataset();
  const { app, store, directory } = await buildTestApp(t);
  const before = (await app.inject({ url: '/developpeurs' })).body;
  const published = dataset.tools.filter((tool) => tool.status === 'published');
  published[0]!.status = 'draft';
  await store.replaceDataset(dataset);
  await directory.refresh();
  const after = (await app.inject({ url: '/developpeurs' })).body;
  const count = (html: string) => Number(/<dt>outils publiés<\/dt><dd>([^<]+)<\/dd>/.exec(html)![1]!.replace(/\s/g, ''));
  assert.equal(count(after), count(before) - 1);
});

test('GET /developpeurs › absolute curl lines to copy, for the host the page was asked on', async (t) => {
  const { app } = await buildTestApp(t);
  const body = (await app.inject({ url: '/developpeurs', headers: { host: 'api.example.org' } })).body;
  assert.match(body, /curl 'http:\/\/api\.example\.org\/api\/v1\/directory\/tools\?q=quiz'/);
  assert.match(body, /curl 'http:\/\/api\.example\.org\/api\/v1\/directory\/levels'/);
  const other = (await app.inject({ url: '/developpeurs', headers: { host: 'other.example.org' } })).body;
  assert.match(other, /curl 'http:\/\/other\.example\.org\//);
});
