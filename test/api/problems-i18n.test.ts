/**
 * Errors in French and English (../shared/API.md): every problem's `title` and `detail`
 * follow Accept-Language (French by default), with Content-Language and
 * `Vary: Accept-Language`; the machine fields are the same in both languages, and `type`
 * never depends on the request's Host.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { LANGUAGES, MESSAGES, negotiateLanguage, PROBLEMS } from '../../src/directory/messages.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { sendRaw } from '../helpers/http.js';

test('problems › the catalogue has every code and every message in French and in English', () => {
  for (const [code, { title }] of Object.entries(PROBLEMS)) {
    for (const lang of LANGUAGES) assert.ok(title[lang]?.trim(), `${code}: a ${lang} title`);
    assert.notEqual(title.fr, title.en, `${code}: the French title is translated`);
  }
  // Each message, called with sample values: both languages, both non-empty, different.
  const samples: Record<string, unknown[]> = {
    didYouMean: [{ fr: 'doit valoir a', en: 'must be a' }, 'a'], page: [9], perPage: [100], oneOf: [['a', 'b'], true], tooLong: [200, 201],
    dateTime: [true], invalidParameters: [[{ parameter: 'p', message: { fr: 'doit', en: 'must' } }]], noSuchSlug: ['tool', 'x', ['y']],
    nothingAt: ['/x', '/api'], methodNotAllowed: ['POST'], rateLimited: [60, 60, 3], segmentTooLong: [80], badRequest: ['why'],
    expectation: ['x'], internal: ['id-1'], unknownArgument: ['search_tools', ['query', 'level']], jsonType: ['boolean'],
  };
  for (const kind of ['string', 'object', 'integer', 'boolean', 'list'] as const) {
    const { message } = MESSAGES.jsonType(kind);
    for (const lang of LANGUAGES) assert.ok(message[lang]?.trim(), `jsonType(${kind}): a ${lang} text`);
    assert.notEqual(message.fr, message.en, `jsonType(${kind}): translated`);
  }
  for (const [name, make] of Object.entries(MESSAGES)) {
    const made = (make as (...a: unknown[]) => unknown)(...(samples[name] ?? []));
    const text = (typeof made === 'object' && made !== null && 'message' in made ? (made as { message: unknown }).message : made) as Record<string, string>;
    for (const lang of LANGUAGES) assert.ok(text[lang]?.trim(), `${name}: a ${lang} text`);
    assert.notEqual(text.fr, text.en, `${name}: translated`);
  }
});

test('problems › Accept-Language picks French or English by q-value; French otherwise', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'fr'], ['', 'fr'], ['en', 'en'], ['EN-gb', 'en'], ['fr-CA', 'fr'], ['de, en;q=0.5', 'en'], ['en;q=0.4, fr;q=0.8', 'fr'],
    ['fr;q=0.3, en;q=0.9', 'en'], ['de, it', 'fr'], ['*', 'fr'], ['en;q=0', 'fr'], ['en, fr', 'en'], ['fr, en', 'fr'], ['en;q=garbage', 'en'], [';;,,', 'fr'],
  ];
  for (const [header, lang] of cases) assert.equal(negotiateLanguage(header), lang, String(header));
});

test('problems › every problem code answers in both languages, with the same machine fields', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '6' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  type Answer = { status: number; headers: Record<string, unknown>; body: Record<string, unknown> };
  const viaInject = async (lang: string | null, url: string, method = 'GET', remoteAddress = '192.0.2.1'): Promise<Answer> => {
    const res = await app.inject({ method: method as 'GET', url, remoteAddress, headers: lang === null ? {} : { 'accept-language': lang } });
    return { status: res.statusCode, headers: res.headers, body: res.json() };
  };
  const viaSocket = async (lang: string | null, text: string): Promise<Answer> => {
    const head = lang === null ? '' : `Accept-Language: ${lang}\r\n`;
    const res = await sendRaw(port, text.replace('\r\n\r\n', `\r\n${head}\r\n`));
    return { status: res.status, headers: res.headers, body: JSON.parse(res.body.toString()) };
  };
  const cases: Array<[string, (lang: string | null) => Promise<Answer>]> = [
    ['invalid-parameter', (l) => viaInject(l, `${API}/tools?page=0&pricing=fremium&sort=name&sort=x`)],
    ['bad-request (percent-encoding)', (l) => viaInject(l, `${API}/tools/%E0%A4%A`)],
    ['not-found (slug)', (l) => viaInject(l, `${API}/tools/quizy`)],
    ['not-found (path)', (l) => viaInject(l, '/nowhere')],
    ['method-not-allowed', (l) => viaInject(l, `${API}/tools`, 'DELETE')],
    ['expectation-failed', (l) => viaSocket(l, `GET ${API}/tools HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n`)],
  ];
  const machine = (b: Record<string, unknown>) => ({
    type: b.type, status: b.status, instance: b.instance, suggestions: b.suggestions,
    errors: (b.errors as Array<Record<string, unknown>> | undefined)?.map(({ message: _, ...rest }) => rest),
  });
  for (const [label, ask] of cases) {
    const [byDefault, fr, en] = [await ask(null), await ask('fr-FR,fr;q=0.9'), await ask('en-GB,en;q=0.9,fr;q=0.5')];
    assert.ok(byDefault.status >= 400, label);
    assert.equal(byDefault.headers['content-language'], 'fr', `${label}: French by default`);
    assert.equal(fr.headers['content-language'], 'fr', label);
    assert.equal(en.headers['content-language'], 'en', label);
    for (const a of [byDefault, fr, en]) assert.match(String(a.headers['vary']), /Accept-Language/, `${label}: caches key on the language`);
    assert.deepEqual(byDefault.body, fr.body, label);
    assert.notEqual(fr.body.title, en.body.title, `${label}: title translated`);
    assert.notEqual(fr.body.detail, en.body.detail, `${label}: detail translated`);
    assert.deepEqual(machine(fr.body), machine(en.body), `${label}: same machine fields`);
  }
  // 429: the seventh request of one client, in each language (refusals are not counted).
  for (let i = 0; i < 6; i++) await viaInject(null, `${API}/categories`, 'GET', '192.0.2.99');
  const [fr429, en429] = [await viaInject(null, `${API}/categories`, 'GET', '192.0.2.99'), await viaInject('en', `${API}/categories`, 'GET', '192.0.2.99')];
  assert.equal(fr429.status, 429);
  assert.match(String(fr429.body.detail), /^Limite de 6 requêtes par 60 secondes atteinte/);
  assert.match(String(en429.body.detail), /^Limit of 6 requests per 60 seconds reached/);
  assert.equal(en429.headers['content-language'], 'en');
  // 431 and an unparsable request: no header was read, so the default language.
  const big = await sendRaw(port, `GET ${API}/tools HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  assert.equal(big.status, 431);
  assert.equal(big.headers['content-language'], 'fr');
  assert.equal(JSON.parse(big.body.toString()).title, 'En-têtes de requête trop volumineux');
});

test('problems › a 500 in English, and problem types never taken from the Host header', async (t) => {
  const { app, directory } = await buildTestApp(t);
  const a = await app.inject({ url: `${API}/tools/quizy`, headers: { host: 'one.example' } });
  const b = await app.inject({ url: `${API}/tools/quizy`, headers: { host: 'two.example:8080' } });
  assert.equal(a.json().type, 'http://localhost/problems/not-found');
  assert.equal(b.json().type, a.json().type, 'the same type whatever the Host');
  Object.defineProperty(directory, 'current', { get: () => { throw new Error('a bug'); } });
  const res = await app.inject({ url: `${API}/tools`, headers: { 'accept-language': 'en' } });
  assert.equal(res.statusCode, 500);
  assert.equal(res.json().title, 'Internal server error');
  assert.equal(res.headers['content-language'], 'en');
  assert.match(res.json().detail, new RegExp(`Quote request id ${res.json().request_id}`));
});

test('problems › with PUBLIC_BASE_URL, problem types are built from it', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const res = await app.inject({ url: `${API}/tools?page=x`, headers: { host: 'evil.example' } });
  assert.equal(res.json().type, 'https://api.example.org/problems/invalid-parameter');
  assert.equal(res.json().errors[0].code, 'not_whole_number');
});

test('problem types › each `type` URI is a page that documents the problem in French and English', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
  const problem = (await app.inject({ url: `${API}/tools?pricing=fremium` })).json();
  assert.equal(problem.type, 'https://api.example.org/problems/invalid-parameter');
  for (const code of ['invalid-parameter', 'bad-request', 'not-found', 'method-not-allowed', 'request-timeout', 'expectation-failed', 'rate-limited', 'headers-too-large', 'internal-error']) {
    const page = await app.inject({ url: `/problems/${code}` });
    assert.equal(page.statusCode, 200, code);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<html lang="fr">/);
    assert.match(page.body, /<section lang="en">/);
    assert.match(page.body, /Que faire/);
    assert.match(page.body, /What to do/);
  }
  assert.match((await app.inject({ url: '/problems' })).body, /href="\/problems\/rate-limited"/);
  assert.equal((await app.inject({ url: '/problems/teapot' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/problems/constructor' })).statusCode, 404);
});
