import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';

/** The feeds, exports and change log (issue 15): the same HTTP rules as every other read. */
const FOLLOW_PATHS = [`${API}/changes`, `${API}/feed.json`, `${API}/feed.atom`, `${API}/export/tools.ndjson`, `${API}/export/tools.csv`, `${API}/datapackage.json`];
const EXPOSED = ['ETag', 'Link', 'X-Total-Count', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

test('every response › CORS, nosniff, exposed headers, request id — errors included', async (t) => {
  const { app } = await buildTestApp(t);
  for (const [method, url] of [['GET', `${API}/tools`], ['GET', `${API}/tools?page=0`], ['GET', `${API}/tools/nope`], ['GET', '/nope'], ['DELETE', `${API}/tools`], ['GET', `${API}/tools/${'a'.repeat(200)}`], ['GET', `${API}/tools/%ZZ`]] as const) {
    const res = await app.inject({ method, url });
    assert.equal(res.headers['access-control-allow-origin'], '*', url);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
    const exposed = String(res.headers['access-control-expose-headers']).split(', ');
    for (const h of EXPOSED) assert.ok(exposed.includes(h), `${url} exposes ${h}`);
  }
  const ok = await app.inject({ url: `${API}/tools` });
  assert.ok(ok.headers['x-request-id']);
});

test('ETag › on every 200; a matching If-None-Match gets 304 with no body', async (t) => {
  const { app } = await buildTestApp(t);
  for (const url of [`${API}/tools`, `${API}/tools/quizzy`, `${API}/collections`, `${API}/collections/creer-un-quiz`, `${API}/categories`, `${API}/openapi.json`, ...FOLLOW_PATHS]) {
    const first = await app.inject({ url });
    assert.equal(first.statusCode, 200, url);
    const etag = first.headers.etag as string;
    assert.match(etag, /^W\/"[\w-]+"$/, url);
    const again = await app.inject({ url, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304, url);
    assert.equal(again.body, '', url);
    assert.equal(again.headers.etag, etag);
    assert.equal(again.headers['cache-control'], 'public, max-age=300');
    assert.equal(again.headers.vary, 'Accept-Encoding');
    assert.equal(again.headers['access-control-allow-origin'], '*');
    assert.ok(again.headers['ratelimit-remaining'] !== undefined, 'a 304 is counted and says so');
    // RFC 9110 §15.4.5: no representation metadata the client already holds.
    for (const name of ['content-type', 'content-length', 'link', 'x-total-count']) assert.equal(again.headers[name], undefined, `${url}: no ${name} on a 304`);
    const head = await app.inject({ method: 'HEAD', url, headers: { 'if-none-match': etag } });
    assert.equal(head.statusCode, 304, `HEAD ${url}`);
    assert.equal(head.headers['content-length'], undefined, `HEAD ${url}: no Content-Length: 0 on a 304`);
    const list = await app.inject({ url, headers: { 'if-none-match': `"other", ${etag}` } });
    assert.equal(list.statusCode, 304, 'a list of tags');
    const other = await app.inject({ url, headers: { 'if-none-match': '"nope"' } });
    assert.equal(other.statusCode, 200);
  }
  const a = (await app.inject({ url: `${API}/tools?page=1` })).headers.etag;
  const b = (await app.inject({ url: `${API}/tools?page=2&per_page=2` })).headers.etag;
  assert.notEqual(a, b, 'different bodies, different ETags');
});

test('HEAD › works wherever GET does, same headers, no body', async (t) => {
  const { app } = await buildTestApp(t);
  for (const url of [`${API}/tools`, `${API}/tools/quizzy`, `${API}/collections`, `${API}/categories`, ...FOLLOW_PATHS]) {
    const get = await app.inject({ url });
    const head = await app.inject({ method: 'HEAD', url });
    assert.equal(head.statusCode, 200, url);
    assert.equal(head.body, '');
    assert.equal(head.headers.etag, get.headers.etag);
    assert.equal(head.headers['content-type'], get.headers['content-type']);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
  }
  assert.equal((await app.inject({ method: 'HEAD', url: `${API}/tools/nope` })).statusCode, 404);
});

test('OPTIONS › CORS preflight answers 204 with methods and max-age', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({
    method: 'OPTIONS',
    url: `${API}/tools`,
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
  });
  assert.equal(res.statusCode, 204);
  assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(res.headers['access-control-allow-headers'], 'if-none-match');
  assert.ok(Number(res.headers['access-control-max-age']) > 0);
});

test('405 › any other method on an API path, with Allow', async (t) => {
  const { app } = await buildTestApp(t);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    for (const url of [`${API}/tools`, `${API}/tools/quizzy`, `${API}/collections`, `${API}/categories`, ...FOLLOW_PATHS]) {
      const res = await app.inject({ method, url, payload: method === 'DELETE' ? undefined : {} });
      assert.equal(res.statusCode, 405, `${method} ${url}`);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(res.json().status, 405);
    }
  }
});

test('405 › the pages and operations endpoints too, and whatever body comes with the method', async (t) => {
  const { app } = await buildTestApp(t);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    for (const url of ['/', '/docs', '/docs/', '/llms.txt', '/healthz', '/readyz', '/media/quizzy-0123456789ab.webp']) {
      const res = await app.inject({ method, url });
      assert.equal(res.statusCode, 405, `${method} ${url}`);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS', `${method} ${url}`);
      assert.equal(res.json().type, 'http://localhost/problems/method-not-allowed');
    }
  }
  // The method is refused before any body is read: not a 400 for bad JSON, nor a 413 for size.
  const bodies: Array<[string, string]> = [['x', 'application/json'], ['{"a":', 'application/json'], ['x'.repeat(4000), 'text/plain'], ['a=b', 'application/x-www-form-urlencoded']];
  for (const [payload, type] of bodies) {
    for (const url of [`${API}/tools`, '/']) {
      const res = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });
      assert.equal(res.statusCode, 405, `POST ${url} ${type} ${payload.slice(0, 10)}`);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
    }
  }
  // A path that does not exist is still a 404, whatever the body.
  const unknown = await app.inject({ method: 'POST', url: '/api/v2/nothing', payload: '{"a":', headers: { 'content-type': 'application/json' } });
  assert.equal(unknown.statusCode, 404);
  // /mcp takes POST: not concerned.
  assert.notEqual((await app.inject({ method: 'POST', url: '/mcp', payload: '{}', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } })).statusCode, 405);
});

test('404 › unknown path is a problem, cacheable', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/api/v2/nothing' });
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  assert.equal(res.json().title, 'Introuvable');
});

test('Cache-Control › 200, 301 and 400 are public for 300 s', async (t) => {
  const { app } = await buildTestApp(t);
  for (const url of [`${API}/tools`, `${API}/tools/ecrire-plus`, `${API}/tools?page=x`, `${API}/categories`]) {
    assert.equal((await app.inject({ url })).headers['cache-control'], 'public, max-age=300', url);
  }
});

test('compression › br and gzip when asked, with Vary; identity otherwise', async (t) => {
  const { app } = await buildTestApp(t);
  const plain = await app.inject({ url: `${API}/tools` });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  const br = await app.inject({ url: `${API}/tools`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
  const gz = await app.inject({ url: `${API}/tools`, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
  const refused = await app.inject({ url: `${API}/tools`, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
  assert.equal(refused.headers['content-encoding'], undefined);
  assert.equal(br.headers.etag, plain.headers.etag, 'one weak validator for all encodings');
});

test('500 › a bug answers a generic problem with a request id, no stack, no-store', async (t) => {
  const { app, directory } = await buildTestApp(t);
  // Break the read model the way a bug would; the public surface must not leak it.
  Object.defineProperty(directory, 'current', { get: () => { throw new Error('SECRET stack detail SELECT * FROM tools'); } });
  const res = await app.inject({ url: `${API}/tools` });
  assert.equal(res.statusCode, 500);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  const body = res.json();
  assert.equal(body.title, 'Erreur interne du serveur');
  assert.ok(!res.body.includes('SECRET') && !res.body.includes('SELECT') && !res.body.includes('at '), res.body);
  assert.equal(body.request_id, res.headers['x-request-id']);
});

test('OpenAPI › a 3.1 document generated from the route schemas', async (t) => {
  const { app } = await buildTestApp(t);
  const doc = (await app.inject({ url: `${API}/openapi.json` })).json();
  assert.equal(doc.openapi, '3.1.0');
  for (const path of ['/api/v1/directory/tools', '/api/v1/directory/tools/{slug}', '/api/v1/directory/collections', '/api/v1/directory/collections/{slug}', '/api/v1/directory/categories', ...FOLLOW_PATHS]) {
    assert.ok(doc.paths[path]?.get, path);
  }
  assert.ok(!doc.paths['/healthz'] && !doc.paths['/readyz'], 'operations endpoints stay out');
  const params = doc.paths['/api/v1/directory/tools'].get.parameters.map((p: { name: string }) => p.name).sort();
  assert.deepEqual(params, [
    'age', 'category', 'data_location', 'facets', 'for_pupils', 'generative_ai', 'has_education_pricing', 'include_transversal', 'institutional_access', 'language', 'level',
    'offline', 'open_source', 'page', 'per_page', 'platform', 'pricing', 'pupil_account', 'pupil_use', 'q', 'sort', 'subject', 'tag', 'trains_on_user_data', 'updated_since',
  ]);
  for (const path of ['/api/v1/directory/levels', '/api/v1/directory/subjects']) assert.ok(doc.paths[path]?.get, path);
  assert.ok(doc.paths['/api/v1/directory/tools'].get.responses['200'].content['application/json'].schema.properties.meta.properties.facets, 'meta.facets is documented');
  const changesParams = doc.paths['/api/v1/directory/changes'].get.parameters.map((p: { name: string }) => p.name).sort();
  assert.deepEqual(changesParams, ['page', 'per_page', 'since']);
  assert.ok(doc.paths['/api/v1/directory/feed.atom'].get.responses['200'].content['application/atom+xml']);
  assert.ok(doc.paths['/api/v1/directory/feed.json'].get.responses['200'].content['application/feed+json'].schema.properties.items);
  assert.ok(doc.paths['/api/v1/directory/export/tools.csv'].get.responses['200'].content['text/csv']);
  const summary = doc.paths['/api/v1/directory/tools'].get.responses['200'].content['application/json'].schema.properties.data.items;
  assert.ok(summary.properties.has_education_pricing);
  const responses = doc.paths['/api/v1/directory/tools'].get.responses;
  for (const h of ['ETag', 'Link', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Total-Count']) assert.ok(responses['200'].headers[h], h);
  assert.ok(responses['429'].headers['Retry-After']);
  assert.ok(responses['304']);
  assert.ok(doc.paths['/api/v1/directory/tools/{slug}'].get.responses['301'].headers.Location);
});
