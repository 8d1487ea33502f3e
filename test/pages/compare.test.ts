/**
 * /comparer (issue « Catalogue II », point 6): two to four tools side by side, a column per tool
 * and a row per fact a teacher checks, each fact with its source and the page's date, the rows
 * those of the tool page; « Comparer » from the results and from a tool page without
 * JavaScript; a list it cannot compare answered in French with a 4xx that names what is wrong,
 * never kept in the cache, never a 500.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { API, buildTestApp } from '../helpers/build-app.js';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const table = (html: string) => /<table class="compare">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
const rowOf = (html: string, label: string) => {
  const row = [...table(html).matchAll(/<tr>\s*<th scope="row">([^<]*)<\/th>([\s\S]*?)<\/tr>/g)].find((m) => m[1] === label);
  assert.ok(row, `a row « ${label} »`);
  return [...row[2]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => m[1]!);
};
const ROWS = [
  'Pour vos élèves', 'Niveaux', 'Disciplines', 'Usage par les élèves', 'Ce qu’il faut à un élève', 'Âge minimal selon l’éditeur', 'Accord d’un parent demandé',
  'IA générative', 'Entraîne ses modèles sur les données des utilisateurs', 'Où sont les données', 'Accès par l’institution (GAR, ENT…)', 'Fonctionne hors connexion',
  'Logiciel libre', 'Déclaration d’accessibilité', 'Prix', 'Offre éducation',
];

test('GET /comparer › a column per tool in the order asked, a row per fact a teacher checks, each with its source and the page’s date; unknown facts say so', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://annuaire.example.org' } });
  const res = await app.inject({ url: '/comparer?outils=quizzy,eau-vive,atelier-quiz' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  const html = res.body;
  assert.match(html, /<h1>Comparer Quizzy, Eau Vive et Atelier<\/h1>/);
  const heads = [...table(html).matchAll(/<th scope="col">[\s\S]*?<a href="\/outils\/([a-z0-9-]+)">/g)].map((m) => m[1]);
  assert.deepEqual(heads, ['quizzy', 'eau-vive', 'atelier-quiz']);
  const labels = [...table(html).matchAll(/<th scope="row">([^<]*)<\/th>/g)].map((m) => m[1]);
  assert.deepEqual(labels, ROWS);
  // Who may use it, by age: the bands of for_pupils, as the API gives them.
  const pupils = rowOf(html, 'Pour vos élèves');
  for (const [k, slug] of ['quizzy', 'eau-vive', 'atelier-quiz'].entries()) {
    const bands = (await app.inject({ url: `${API}/tools/${slug}` })).json().data.school.for_pupils;
    assert.equal((pupils[k]!.match(/<li /g) ?? []).length, bands.length, slug);
  }
  assert.match(text(pupils[1]!), /De 3 à 9 ans : non, les conditions de l’éditeur l’interdisent\./);
  assert.match(text(pupils[2]!), /À partir de 3 ans : seulement sous la conduite de l’enseignant\./);
  // A sourced fact: its page, and the date the page gives where it gives one.
  const age = rowOf(html, 'Âge minimal selon l’éditeur');
  assert.equal(age[1], '10 ans — <a href="https://eau-vive.example.org/cgu" rel="noopener">source</a> (page du 1 septembre 2026)');
  assert.equal(age[0], 'Aucun âge fixé — <a href="https://quizzy.example.org/licence" rel="noopener">source</a>');
  assert.match(rowOf(html, 'Accord d’un parent demandé')[1]!, /^Avant 15 ans — <a href="https:\/\/eau-vive\.example\.org\/cgu"/);
  // Unknown: said, never blank.
  assert.equal(rowOf(html, 'Où sont les données')[0], '<span class="unknown">inconnu — aucune page lue ne le dit</span>');
  assert.equal(rowOf(html, 'Accès par l’institution (GAR, ENT…)')[0], 'Aucun');
  assert.match(rowOf(html, 'Prix')[0]!, /^Gratuit — Entièrement gratuit/);
  assert.match(rowOf(html, 'Offre éducation')[1]!, /Aucune offre éducation connue/);
  // Each column can be taken out while two remain; a comparison is never indexed.
  assert.match(html, /<a href="\/comparer\?outils=eau-vive,atelier-quiz">Retirer Quizzy de la comparaison<\/a>/);
  assert.match(html, /<meta name="robots" content="noindex">/);
  assert.match(html, /<link rel="canonical" href="https:\/\/annuaire\.example\.org\/comparer\?outils=quizzy,eau-vive,atelier-quiz">/);
  const two = await app.inject({ url: '/comparer?outils=quizzy,eau-vive' });
  assert.doesNotMatch(two.body, /Retirer .* de la comparaison/, 'two is the fewest');
});

test('GET /comparer › the same facts as the tool page, row for row', async (t) => {
  const { app } = await buildTestApp(t);
  const compared = (await app.inject({ url: '/comparer?outils=eau-vive,quizzy' })).body;
  const tool = (await app.inject({ url: '/outils/eau-vive' })).body;
  const onTool = [...tool.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([\s\S]*?)<\/td><\/tr>/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(onTool.map((r) => r[0]), ROWS.slice(1));
  for (const [label, cell] of onTool) assert.equal(rowOf(compared, label!)[0], cell, label);
});

test('GET /comparer › the checkboxes’ form (outils repeated) and a link (outils=a,b) are the same page, kept once per revision; order is the columns’', async (t) => {
  const { app } = await buildTestApp(t);
  const link = await app.inject({ url: '/comparer?outils=quizzy,eau-vive' });
  const form = await app.inject({ url: '/comparer?outils=quizzy&outils=eau-vive&autre=1' });
  assert.equal(form.statusCode, 200);
  assert.equal(form.body, link.body);
  assert.equal(form.headers.etag, link.headers.etag);
  assert.equal((await app.inject({ url: '/comparer?outils=quizzy,eau-vive', headers: { 'if-none-match': String(link.headers.etag) } })).statusCode, 304);
  const swapped = await app.inject({ url: '/comparer?outils=eau-vive,quizzy' });
  assert.notEqual(swapped.body, link.body);
  assert.match(swapped.body, /<h1>Comparer Eau Vive et Quizzy<\/h1>/);
  // The pages' budget, not the API's.
  const budget = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '1', PAGE_RATE_LIMIT_MAX: '2' } });
  for (let i = 0; i < 2; i++) assert.equal((await budget.app.inject({ url: '/comparer?outils=quizzy,eau-vive' })).statusCode, 200);
  assert.equal((await budget.app.inject({ url: '/comparer?outils=quizzy,eau-vive', headers: { accept: 'text/html' } })).statusCode, 429);
  assert.equal((await budget.app.inject({ url: `${API}/categories` })).statusCode, 200, 'the API’s budget is untouched');
});

test('GET /comparer › none, one, more than four, twice the same, an unknown address: a French page naming what is wrong (400, 404 for unknown addresses only), never kept', async (t) => {
  const { app } = await buildTestApp(t);
  const cases: Array<[string, number, RegExp]> = [
    ['/comparer', 400, /Aucun outil à comparer : cochez de 2 à 4 outils/],
    ['/comparer?outils=', 400, /Aucun outil à comparer/],
    ['/comparer?outils=quizzy', 400, /Un seul outil \(Quizzy\) : choisissez-en au moins un autre/],
    ['/comparer?outils=quizzy,eau-vive,atelier-quiz,quiz-master,zebre-math', 400, /5 outils demandés : on en compare 4 au plus\. Retirez-en 1\./],
    ['/comparer?outils=quizzy,quizzy', 400, /« quizzy » est demandé plusieurs fois : chaque outil n’a qu’une colonne\./],
    ['/comparer?outils=ecrire-plus,ecrire-mieux', 400, /« ecrire-mieux » et une autre adresse de la liste désignent le même outil \(Écrire Mieux\)/],
    ['/comparer?outils=quizy,eau-vive', 404, /Aucun outil publié n’a l’adresse « quizy »\./],
    ['/comparer?outils=brouillon,eau-vive', 404, /Aucun outil publié n’a l’adresse « brouillon »\./],
    ['/comparer?outils=%3Cscript%3E,eau-vive', 404, /Aucun outil publié n’a l’adresse « &lt;script&gt; »\./],
  ];
  for (const [url, status, message] of cases) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, status, url);
    assert.match(String(res.headers['content-type']), /^text\/html/, url);
    assert.match(res.body, /<h1>Comparaison impossible<\/h1>/, url);
    assert.match(res.body, message, url);
    assert.match(res.body, /<meta name="robots" content="noindex">/, url);
    assert.equal(res.headers.etag, undefined, `${url}: not kept`);
    assert.doesNotMatch(res.body, /<script>/, url);
  }
  // What would mend it: the comparison with the nearest address, or with a similar tool.
  assert.match((await app.inject({ url: '/comparer?outils=quizy,eau-vive' })).body, /<a href="\/comparer\?outils=quizzy,eau-vive">Quizzy au lieu de « quizy »<\/a>/);
  assert.match((await app.inject({ url: '/comparer?outils=quizzy' })).body, /<a href="\/comparer\?outils=quizzy,[a-z0-9-]+">Quizzy et /);
  // A former address is followed to the tool’s, like the tool page.
  const renamed = await app.inject({ url: '/comparer?outils=ecrire-plus,quizzy' });
  assert.equal(renamed.statusCode, 301);
  assert.equal(renamed.headers.location, '/comparer?outils=ecrire-mieux,quizzy');
  // Whatever the list, never a 500.
  await fc.assert(fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom('quizzy', 'eau-vive', 'ecrire-plus', 'atelier-quiz', ''), fc.string({ maxLength: 30 })), { maxLength: 8 }), async (list) => {
    const res = await app.inject({ url: `/comparer?outils=${list.map(encodeURIComponent).join(',')}` });
    assert.ok([200, 301, 400, 404].includes(res.statusCode), `${list.join(',')}: ${res.statusCode}`);
  }), { numRuns: 150 });
  // An error never leaves bytes for a good list.
  assert.equal((await app.inject({ url: '/comparer?outils=quizzy,eau-vive' })).statusCode, 200);
});

test('« Comparer » › from the results: a checkbox per card submitting to /comparer (its own form, outside the search’s); from a tool page: a link and a form with its similar tools', async (t) => {
  const { app } = await buildTestApp(t);
  const list = (await app.inject({ url: '/outils?q=quiz' })).body;
  assert.match(list, /<form id="comparer" action="\/comparer" method="get"><\/form>/);
  assert.match(list, /<input type="checkbox" id="comparer-quizzy" name="outils" value="quizzy" form="comparer"> <label for="comparer-quizzy">Comparer<span class="visually-hidden"> Quizzy<\/span><\/label>/);
  assert.match(list, /<button type="submit" form="comparer">Comparer les outils cochés<\/button>/);
  const tool = (await app.inject({ url: '/outils/quizzy' })).body;
  const link = /<a class="button secondary" href="(\/comparer\?outils=quizzy,[a-z0-9-]+,[a-z0-9-]+)">Comparer avec /.exec(tool);
  assert.ok(link, 'a link to compare with its two nearest tools');
  assert.equal((await app.inject({ url: link[1]!.replaceAll('&amp;', '&') })).statusCode, 200);
  const form = /<form class="compare-form" action="\/comparer" method="get">\s*<input type="hidden" name="outils" value="quizzy">[\s\S]*?<\/form>/.exec(tool)?.[0] ?? '';
  assert.match(form, /<input type="checkbox" id="comparer-[a-z0-9-]+" name="outils" value="[a-z0-9-]+">/);
  assert.match(form, /<button type="submit">Comparer Quizzy avec les outils cochés<\/button>/);
});
