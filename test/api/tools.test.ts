import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';

const names = (body: { data: Array<{ name: string }> }) => body.data.map((t) => t.name);

test('GET /tools › default page: envelope, French collation order, drafts hidden', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const body = res.json();
  assert.deepEqual(names(body), ['Atelier', 'Eau Vive', 'École Test', 'Écrire Mieux', 'Élève Plus', 'Œuvre Studio', 'Quiz Master', 'Quizzy', 'Zèbre Math']);
  assert.deepEqual(body.meta.page, 1);
  assert.equal(body.meta.per_page, 30);
  assert.equal(body.meta.total, 9);
  assert.equal(body.meta.total_pages, 1);
  assert.deepEqual(body.meta.license, {
    name: 'CC BY 4.0',
    url: 'https://creativecommons.org/licenses/by/4.0/',
    attribution: 'Éditeur de test — https://editeur.example.org',
  });
  assert.equal(res.headers['x-total-count'], '9');
  assert.match(String(res.headers.link), /<https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/>; rel="license"/);
  assert.ok(!JSON.stringify(body).includes('brouillon'), 'a draft tool appears nowhere');
});

test('GET /tools › ToolSummary has exactly the contract fields', async (t) => {
  const { app } = await buildTestApp(t);
  const body = (await app.inject({ url: `${API}/tools?q=quizzy`, headers: { host: 'api.example.org' } })).json();
  assert.deepEqual(body.data[0], {
    slug: 'quizzy',
    name: 'Quizzy',
    short_description: 'Outil Quizzy pour la classe : une description courte en français, pour les enseignants.',
    category: { slug: 'quiz', name: 'Quiz et interaction' },
    pricing: 'free',
    has_education_pricing: true,
    website_url: 'https://quizzy.example.org/',
    logo_url: null,
    updated_at: '2026-03-01T08:00:00Z',
    links: { self: 'http://api.example.org/api/v1/directory/tools/quizzy' },
    school: {
      levels: ['elementaire', 'college'], subjects: ['transversal'], pupil_use: 'supervised', pupil_account: 'class_code', min_age: 0, consent_age: null, generative_ai: 'none',
      trains_on_user_data: 'not_applicable', data_location: null, institutional_access: [], offline: false, open_source: true,
      for_pupils: [{ from: 3, to: null, answer: 'yes', reasons: ['terms_allow'] }],
    },
  });
});

test('GET /tools › pagination links are absolute, canonical, and in the Link header', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org/' } });
  const res = await app.inject({ url: `${API}/tools?per_page=2&page=2&_=12345` });
  const body = res.json();
  assert.deepEqual(body.links, {
    self: 'https://api.example.org/api/v1/directory/tools?page=2&per_page=2',
    first: 'https://api.example.org/api/v1/directory/tools?page=1&per_page=2',
    prev: 'https://api.example.org/api/v1/directory/tools?page=1&per_page=2',
    next: 'https://api.example.org/api/v1/directory/tools?page=3&per_page=2',
    last: 'https://api.example.org/api/v1/directory/tools?page=5&per_page=2',
  });
  const link = String(res.headers.link);
  for (const rel of ['self', 'first', 'prev', 'next', 'last']) assert.ok(link.includes(`<${body.links[rel]}>; rel="${rel}"`), rel);
  assert.deepEqual(names(body), ['École Test', 'Écrire Mieux']);
});

test('GET /tools › past the last page is 200 with empty data', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools?page=99999999` });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.deepEqual(body.data, []);
  assert.equal(body.meta.total, 9);
  assert.equal(body.links.next, null);
  assert.match(body.links.prev, /page=1&/);
});

test('GET /tools › clamps per_page above 100, however large', async (t) => {
  const { app } = await buildTestApp(t);
  for (const value of ['101', '5000', '99999999999999999999999999999']) {
    const res = await app.inject({ url: `${API}/tools?per_page=${value}` });
    assert.equal(res.statusCode, 200, value);
    assert.equal(res.json().meta.per_page, 100, value);
  }
});

test('GET /tools › invalid numbers are 400 problems naming the parameter', async (t) => {
  const { app } = await buildTestApp(t);
  for (const [param, value] of [['page', '0'], ['page', 'Infinity'], ['page', '1e3'], ['page', '0x10'], ['page', '1.0'], ['page', '-1'], ['per_page', 'abc'], ['per_page', '0'], ['page', '99999999999999999999']]) {
    const res = await app.inject({ url: `${API}/tools?${param}=${encodeURIComponent(value!)}` });
    assert.equal(res.statusCode, 400, `${param}=${value}`);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    const problem = res.json();
    assert.equal(problem.status, 400);
    assert.equal(problem.title, 'Paramètre de requête invalide');
    assert.match(problem.type, /\/problems\/invalid-parameter$/);
    assert.equal(problem.errors[0].parameter, param);
    assert.equal(problem.errors[0].value, value);
    assert.ok(problem.instance.startsWith(`${API}/tools?`));
  }
});

test('GET /tools › every bad parameter is listed at once', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools?page=x&per_page=y&pricing=fremium&sort=nom&has_education_pricing=peut-etre` });
  assert.equal(res.statusCode, 400);
  const problem = res.json();
  assert.deepEqual(problem.errors.map((e: { parameter: string }) => e.parameter), ['page', 'per_page', 'pricing', 'has_education_pricing', 'sort']);
  const pricing = problem.errors.find((e: { parameter: string }) => e.parameter === 'pricing');
  assert.equal(pricing.suggestion, 'freemium');
  assert.match(problem.detail, /vouliez-vous dire « freemium » \?/);
});

test('GET /tools › a parameter given twice is a 400, never a silent pick', async (t) => {
  const { app } = await buildTestApp(t);
  for (const q of ['page=1&page=2', 'pricing=free&pricing=paid', 'q=a&q=b', 'category=quiz&category=quiz']) {
    const res = await app.inject({ url: `${API}/tools?${q}` });
    assert.equal(res.statusCode, 400, q);
    assert.match(res.json().errors[0].message, /plusieurs fois/);
    assert.equal(res.json().errors[0].code, 'repeated');
  }
});

test('GET /tools › unknown parameters are ignored', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools?_=1699999&utm_source=x&__proto__=1&constructor=2` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().meta.total, 9);
});

test('GET /tools › filters combine with AND; comma lists mean any of them', async (t) => {
  const { app } = await buildTestApp(t);
  const get = async (q: string) => (await app.inject({ url: `${API}/tools?${q}` })).json();
  assert.deepEqual(names(await get('category=ecriture')), ['Écrire Mieux', 'Élève Plus', 'Œuvre Studio']);
  assert.deepEqual(names(await get('category=ecriture,sciences&pricing=FREEMIUM')), ['Eau Vive', 'École Test', 'Œuvre Studio', 'Zèbre Math']);
  assert.deepEqual(names(await get('pricing=free,paid')), ['Élève Plus', 'Quizzy']);
  assert.deepEqual(names(await get('has_education_pricing=true')), ['Atelier', 'Œuvre Studio', 'Quizzy']);
  assert.deepEqual(names(await get('has_education_pricing=1&category=quiz')), ['Atelier', 'Quizzy']);
  assert.equal((await get('has_education_pricing=0')).meta.total, 9);
  assert.equal((await get('has_education_pricing=FALSE')).meta.total, 9);
  const unknown = await get('category=nope');
  assert.deepEqual(unknown.data, []);
  assert.equal(unknown.meta.total, 0);
  assert.equal((await get('category=vide')).meta.total, 0);
});

test('GET /tools › malformed category is a 400', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools?category=${encodeURIComponent('../etc,<b>')}` });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().errors[0].parameter, 'category');
});

test('GET /tools › search is case-, accent-, ligature- and punctuation-insensitive', async (t) => {
  const { app } = await buildTestApp(t);
  // The long description (the same paragraph in every fixture tool, which says « élèves ») is
  // searched too, at a low weight: the tools whose name or short description hold the word come
  // first, in the same order whatever the spelling.
  const search = async (q: string) => names((await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}` })).json()).slice(0, 3);
  const eleve = ['Élève Plus', 'Écrire Mieux', 'Quiz Master'];
  assert.deepEqual(await search('eleve'), eleve);
  assert.deepEqual(await search('ÉLÈVE'), eleve);
  assert.equal((await search('oeuvre'))[0], 'Œuvre Studio');
  assert.deepEqual(await search('Œuvre'), await search('oeuvre'));
  assert.equal((await search('ecriture'))[0], 'Œuvre Studio');
  assert.deepEqual(await search("l'écriture!"), await search('ecriture'));
  assert.deepEqual(await search('e\u0301le\u0300ve'), eleve, 'decomposed accents');
  assert.deepEqual(await search('él\u200Bève'), eleve, 'zero-width characters are dropped');
  assert.deepEqual(await search('   '), await search(''), 'blank q is no search');
  assert.deepEqual(await search('?!…'), await search(''), 'punctuation only is no search');
});

test('GET /tools › search ranks exact name, name prefix, then the score; sort= overrides it', async (t) => {
  const { app } = await buildTestApp(t);
  const body = (await app.inject({ url: `${API}/tools?q=quiz` })).json();
  // Both names start with "quiz"; "Quiz Master" holds the word itself, "Quizzy" only completes it.
  assert.deepEqual(names(body), ['Quiz Master', 'Quizzy', 'Atelier', 'Zèbre Math']);
  const exact = (await app.inject({ url: `${API}/tools?q=atelier` })).json();
  assert.deepEqual(names(exact), ['Atelier', 'Œuvre Studio']);
  const sorted = (await app.inject({ url: `${API}/tools?q=quiz&sort=name` })).json();
  assert.deepEqual(names(sorted), ['Atelier', 'Quiz Master', 'Quizzy', 'Zèbre Math']);
  assert.match(sorted.links.self, /q=quiz&sort=name&page=1/);
});

test('GET /tools › q longer than 200 characters is a 400', async (t) => {
  const { app } = await buildTestApp(t);
  assert.equal((await app.inject({ url: `${API}/tools?q=${'a'.repeat(200)}` })).statusCode, 200);
  const res = await app.inject({ url: `${API}/tools?q=${'a'.repeat(201)}` });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().errors[0].parameter, 'q');
});

test('GET /tools › sort by -updated_at and -created_at, ties by name', async (t) => {
  const { app } = await buildTestApp(t);
  const updated = names((await app.inject({ url: `${API}/tools?sort=-updated_at&per_page=3` })).json());
  assert.deepEqual(updated, ['Zèbre Math', 'Quizzy', 'Quiz Master']);
  const created = names((await app.inject({ url: `${API}/tools?sort=-created_at&per_page=2` })).json());
  assert.deepEqual(created, ['Quiz Master', 'Atelier']);
  const bad = await app.inject({ url: `${API}/tools?sort=updated_at` });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().errors[0].suggestion, '-updated_at');
});

test('GET /tools › an unknown category still answers 200 with no tools, and meta.warnings names the nearest category', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/tools?category=quizz,sciences` });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.ok(body.data.every((tool: { category: { slug: string } }) => tool.category.slug === 'sciences'));
  assert.deepEqual(body.meta.warnings.map((w: { code: string; value: string; suggestion: string }) => [w.code, w.value, w.suggestion]), [['unknown_category', 'quizz', 'quiz']]);
  assert.equal((await app.inject({ url: `${API}/tools?category=quiz` })).json().meta.warnings, undefined);
});
