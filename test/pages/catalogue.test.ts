/**
 * The French web catalogue through HTTP (issue « A French web catalogue »): every page is
 * server-rendered HTML that works without JavaScript, from the same query room as the API;
 * values are escaped; a strict CSP; cached bytes with an ETag; sitemap and robots.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset } from '../helpers/fixture.js';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

test('GET / › the catalogue home: one h1, a search form to /outils, entry points by level, subject and category, collections, French', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  const html = res.body;
  assert.match(html, /<html lang="fr">/);
  assert.equal(html.match(/<h1[ >]/g)?.length, 1);
  assert.match(html, /<form class="search" action="\/outils" method="get" role="search">/);
  assert.match(html, /<label for="q">/);
  assert.match(html, /href="\/outils\?level=college">Collège <span class="count">\(2\)/);
  assert.match(html, /href="\/outils\?subject=svt">/);
  assert.match(html, /href="\/outils\?category=quiz">/);
  assert.match(html, /href="\/collections\/creer-un-quiz">Créer un quiz/);
  assert.match(html, /<a class="skip" href="#contenu">/);
  assert.match(html, /href="\/developpeurs"/);
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.match(String(res.headers.etag), /^W\//);
  const again = await app.inject({ url: '/', headers: { 'if-none-match': String(res.headers.etag) } });
  assert.equal(again.statusCode, 304);
});

test('GET /developpeurs › the former home page for developers', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/developpeurs' });
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /\/docs/);
});

test('GET /outils › search and filters as plain GET parameters (the API’s names), facet counts, active filters removable one by one', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/outils?level=6e&subject=svt&include_transversal=1' });
  assert.equal(res.statusCode, 200);
  const html = res.body;
  assert.match(text(html), /2 outils/);
  assert.match(html, /href="\/outils\/eau-vive"/);
  assert.match(html, /href="\/outils\/quizzy"/);
  // Every control has a label; the level select shows counts and keeps the choice.
  assert.match(html, /<label class="visually-hidden" for="f-level">Niveau<\/label>/);
  assert.match(html, /<option value="college" selected>Collège \(\d+\)<\/option>/);
  // Active filters, each removable (the alias read as its level).
  assert.match(html, /<a href="\/outils\?subject=svt&amp;include_transversal=1"><span class="visually-hidden">Retirer « <\/span>Niveau : Collège<span class="visually-hidden"> »<\/span> <span aria-hidden="true">×<\/span><\/a>/);
  assert.match(html, /<a href="\/outils\?level=college&amp;include_transversal=1"><span class="visually-hidden">Retirer « <\/span>Discipline : Sciences de la vie et de la Terre<span class="visually-hidden"> »<\/span> <span aria-hidden="true">×<\/span><\/a>/);
  // An empty result says why and which filter to drop.
  const none = await app.inject({ url: '/outils?level=maternelle&subject=svt' });
  assert.equal(none.statusCode, 200);
  assert.match(text(none.body), /Aucun outil ne remplit toutes ces conditions/);
  assert.match(none.body, /<a href="\/outils\?subject=svt">Retirer « Niveau : Maternelle »<\/a> donnerait 1 outil/);
  const bad = await app.inject({ url: '/outils?level=colege' });
  assert.equal(bad.statusCode, 400);
  assert.match(text(bad.body), /level doit être un niveau/);
});

test('GET /outils › a menu offers the choices that find something, each with its count; a chosen one that finds nothing stays, selected', async (t) => {
  const { app } = await buildTestApp(t);
  const select = (html: string, name: string) => {
    const body = html.match(new RegExp(`<select id="f-${name}" name="${name}">([\\s\\S]*?)</select>`))?.[1];
    assert.ok(body, `the ${name} menu`);
    return [...body.matchAll(/<option value="([^"]*)"( selected)?>[^<]*?(?: \((\d+)\))?<\/option>/g)].map((m) => ({ value: m[1]!, selected: m[2] !== undefined, count: m[3] === undefined ? null : Number(m[3]) }));
  };
  const all = await app.inject({ url: '/outils' });
  const narrowed = await app.inject({ url: '/outils?subject=svt' });
  for (const name of ['category', 'level', 'pricing', 'generative_ai']) {
    const everything = select(all.body, name).filter((o) => o.count !== null);
    const some = select(narrowed.body, name).filter((o) => o.count !== null);
    assert.ok(some.every((o) => o.count! > 0), `${name}: no choice at (0)`);
    assert.ok(some.length <= everything.length, name);
  }
  // Fewer categories are offered once the list is narrowed to one subject.
  assert.ok(select(narrowed.body, 'category').length < select(all.body, 'category').length);
  // A choice with no count (« Sans compte personnel », an age) is always offered.
  assert.ok(select(narrowed.body, 'pupil_account').some((o) => o.value === 'none,class_code'));
  assert.equal(select(narrowed.body, 'age').length, 17);
  // Asked in the URL, a level that keeps nothing stays in its menu, selected, at 0.
  const none = await app.inject({ url: '/outils?level=maternelle&subject=svt' });
  assert.deepEqual(select(none.body, 'level').find((o) => o.value === 'maternelle'), { value: 'maternelle', selected: true, count: 0 });
});

test('GET /outils › a query with <script> stays text: every value is escaped', async (t) => {
  const dataset = fixtureDataset();
  dataset.tools[0]!.name = 'Quizzy <script>alert(1)</script>';
  const { app } = await buildTestApp(t, { dataset });
  const res = await app.inject({ url: `/outils?q=${encodeURIComponent('<script>alert("x")</script>')}` });
  assert.doesNotMatch(res.body, /<script>alert/);
  assert.match(res.body, /&lt;script&gt;alert/);
  const tool = await app.inject({ url: '/outils/quizzy' });
  assert.doesNotMatch(tool.body, /<script>alert/);
  assert.match(tool.body, /Quizzy &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  // JSON-LD cannot be closed early by a value.
  assert.doesNotMatch(tool.body, /<\/script><script>/);
});

test('GET /outils/{slug} › « Outils proches »: the tools a search for alternatives to it finds, in its order, never itself', async (t) => {
  const { app } = await buildTestApp(t);
  const html = (await app.inject({ url: '/outils/quizzy' })).body;
  const section = html.split('<h2>Outils proches</h2>')[1]?.split('</ul>')[0] ?? '';
  const shown = [...section.matchAll(/<h3><a href="\/outils\/([a-z0-9-]+)">/g)].map((m) => m[1]);
  assert.ok(shown.length > 0, 'the section is there');
  assert.ok(!shown.includes('quizzy'));
  const searched = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('alternative à Quizzy')}` })).json().data.map((t: { slug: string }) => t.slug);
  assert.deepEqual(shown, searched.slice(0, shown.length));
  assert.deepEqual(new Set(shown.slice(0, 2)), new Set(['quiz-master', 'atelier-quiz']));
});

test('GET /outils/{slug} › the tool page: facts table with « inconnu — aucune page lue ne le dit » and sources, JSON-LD, canonical, the JSON link; renamed 301; unknown 404 in French with suggestions', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://annuaire.example.org' } });
  const res = await app.inject({ url: '/outils/eau-vive' });
  assert.equal(res.statusCode, 200);
  const html = res.body;
  assert.match(html, /<h1>Eau Vive<\/h1>/);
  assert.match(html, /<link rel="canonical" href="https:\/\/annuaire\.example\.org\/outils\/eau-vive">/);
  assert.match(html, /<th scope="row">Âge minimal selon l’éditeur<\/th><td>10 ans — <a href="https:\/\/eau-vive\.example\.org\/cgu" rel="noopener">source<\/a>/);
  assert.match(html, /<th scope="row">Accès par l’institution \(GAR, ENT…\)<\/th><td><span class="unknown">inconnu — aucune page lue ne le dit<\/span>/);
  assert.match(html, /"@type":"SoftwareApplication"/);
  assert.match(html, /"@type":"BreadcrumbList"/);
  assert.match(html, /<meta property="og:title" content="Eau Vive">/);
  assert.match(html, new RegExp(`href="https://annuaire.example.org${API}/tools/eau-vive"`));
  const renamed = await app.inject({ url: '/outils/ecrire-plus' });
  assert.equal(renamed.statusCode, 301);
  assert.equal(renamed.headers.location, '/outils/ecrire-mieux');
  const unknown = await app.inject({ url: '/outils/quizy' });
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.body, /<h1>Page introuvable<\/h1>/);
  assert.match(unknown.body, /href="\/outils\/quizzy">Quizzy/);
  assert.equal((await app.inject({ url: '/outils/brouillon' })).statusCode, 404, 'a draft is unknown');
});

test('GET /collections and /collections/{slug} › the selections with their notes, ItemList JSON-LD', async (t) => {
  const { app } = await buildTestApp(t);
  const list = await app.inject({ url: '/collections' });
  assert.equal(list.statusCode, 200);
  assert.match(list.body, /href="\/collections\/professeur-de-lettres"/);
  const one = await app.inject({ url: '/collections/creer-un-quiz' });
  assert.equal(one.statusCode, 200);
  assert.match(one.body, /Le plus simple pour commencer/);
  assert.match(one.body, /"@type":"ItemList"/);
  assert.doesNotMatch(one.body, /brouillon/i);
  assert.equal((await app.inject({ url: '/collections/creer-des-quiz' })).statusCode, 404);
});

test('GET /sitemap.xml and /robots.txt › every published page, the API kept out', async (t) => {
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://annuaire.example.org' } });
  const sitemap = (await app.inject({ url: '/sitemap.xml' })).body;
  assert.match(sitemap, /<loc>https:\/\/annuaire\.example\.org\/outils\/quizzy<\/loc>/);
  assert.doesNotMatch(sitemap, /brouillon/);
  const robots = (await app.inject({ url: '/robots.txt' })).body;
  assert.match(robots, /Sitemap: https:\/\/annuaire\.example\.org\/sitemap\.xml/);
  assert.match(robots, /Disallow: \/api\//);
});

test('unknown paths › a browser gets the French 404 page; a program still gets a problem', async (t) => {
  const { app } = await buildTestApp(t);
  const page = await app.inject({ url: '/nulle-part', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  assert.equal(page.statusCode, 404);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.body, /<h1>Page introuvable<\/h1>/);
  const api = await app.inject({ url: '/nulle-part' });
  assert.equal(api.statusCode, 404);
  assert.match(String(api.headers['content-type']), /^application\/problem\+json/);
  const inApi = await app.inject({ url: `${API}/nulle-part`, headers: { accept: 'text/html' } });
  assert.match(String(inApi.headers['content-type']), /^application\/problem\+json/);
});

test('GET /outils/{slug} › « Mes élèves peuvent-ils l’utiliser ? »: one sentence per age band of for_pupils, why, the terms’ source, a link to the rules', async (t) => {
  const { app } = await buildTestApp(t);
  const html = (await app.inject({ url: '/outils/eau-vive' })).body;
  const section = /<ul class="pupils">[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '';
  const bands = (await app.inject({ url: `${API}/tools/eau-vive` })).json().data.school.for_pupils;
  assert.equal((section.match(/<li /g) ?? []).length, bands.length);
  assert.match(text(section), /De 3 à 9 ans : non, les conditions de l’éditeur l’interdisent\./);
  assert.match(text(section), /À partir de 15 ans : oui, vos élèves peuvent l’utiliser eux-mêmes\./);
  assert.match(section, /href="https:\/\/eau-vive\.example\.org\/cgu"/);
  assert.match(html, new RegExp(`href="${API}/rules">règles</a>`));
  const teacher = (await app.inject({ url: '/outils/atelier-quiz' })).body;
  assert.match(text(/<ul class="pupils">[\s\S]*?<\/ul>/.exec(teacher)![0]), /À partir de 3 ans : seulement sous la conduite de l’enseignant\./);
});

test('GET / › « Derniers changements » shows what came after the first import, not the first import of every tool', async (t) => {
  const { editedDataset, importAndRefresh, nextSecond } = await import('../helpers/follow.js');
  const ctx = await buildTestApp(t);
  const before = (await ctx.app.inject({ url: '/' })).body;
  assert.doesNotMatch(before, /<h2>Derniers changements<\/h2>/, 'only the first import so far');
  await nextSecond();
  await importAndRefresh(ctx, editedDataset());
  const after = (await ctx.app.inject({ url: '/' })).body;
  const section = /<h2>Derniers changements<\/h2>\s*<ul>([\s\S]*?)<\/ul>/.exec(after)?.[1] ?? '';
  assert.equal((section.match(/<li>/g) ?? []).length, 3, 'the three changes of the second import');
  assert.match(text(section), /Quiz Maestro : renommé/);
});

test('GET /collections › a jump list of every selection by task and by persona at the top, and an ItemList in JSON-LD', async (t) => {
  const { app } = await buildTestApp(t);
  const html = (await app.inject({ url: '/collections' })).body;
  const jump = /<nav aria-label="Aller à une sélection"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  assert.match(jump, /Par tâche/);
  assert.match(jump, /href="\/collections\/creer-un-quiz">Créer un quiz<\/a>/);
  assert.ok(html.indexOf(jump) < html.indexOf('<ul class="cards">'), 'before the cards');
  const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
  const list = ld.find((x) => x['@type'] === 'ItemList');
  assert.ok(list && list.itemListElement.some((i: { url: string }) => /\/collections\/creer-un-quiz$/.test(i.url)));
});

test('GET /outils › a search that finds nothing offers what would: the search without the word nobody holds, matching selections, the level or subject it named', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: '/outils?q=quiz%20zzqqxx' });
  assert.equal(res.statusCode, 200);
  const notice = text(/<div class="notice">[\s\S]*?<\/div>/.exec(res.body)?.[0] ?? '');
  assert.match(notice, /Sans un des mots : « quiz » \(\d+ outils?\)/);
  assert.match(res.body, /href="\/outils\?q=quiz"/);
  assert.match(notice, /Des sélections de la rédaction : Créer un quiz/);
  assert.match(res.body, /href="\/collections\/creer-un-quiz"/);
  const named = await app.inject({ url: '/outils?q=zzqqxx%20wwyyvv%20au%20coll%C3%A8ge' });
  assert.match(text(named.body), /0 outil/);
  assert.match(named.body, /Tous les outils pour : <a href="\/outils\?level=college">Collège<\/a>/);
});

test('GET /outils › the needs of inclusive education are found by search, not only by selection (ULIS, SEGPA, UPE2A, AESH)', async (t) => {
  const { loadContent } = await import('../../src/content/load-content.js');
  const loaded = await loadContent(new URL('../../content', import.meta.url).pathname);
  assert.ok(loaded.ok);
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  for (const q of ['ULIS', 'SEGPA', 'UPE2A', 'AESH', 'synthèse vocale ULIS']) {
    const body = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}` })).json();
    assert.ok(body.meta.total > 0, `${q} finds tools`);
  }
});

test('GET /outils › understood = applied: what the sentence says becomes the form’s filters, removable chips and the title; the box keeps the other words', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `/outils?q=${encodeURIComponent('quiz CM2 sans compte')}` });
  assert.equal(res.statusCode, 200);
  const html = res.body;
  assert.match(html, /<input type="search" id="q" name="q" value="quiz"/);
  assert.match(html, /<option value="elementaire" selected>/);
  assert.match(html, /<option value="none,class_code" selected>/);
  assert.match(html, /<h1>Quiz · École élémentaire · sans compte personnel<\/h1>/);
  assert.match(html, /<title>Outils : Quiz · École élémentaire · sans compte personnel/);
  // Each applied filter is a chip that removes it alone: the sentence is not read again.
  const chips = [...html.matchAll(/<li class="active"><a href="([^"]+)"><span class="visually-hidden">Retirer « <\/span>([^<]+)<span class="visually-hidden"> »<\/span> <span aria-hidden="true">×<\/span><\/a><\/li>/g)].map((m) => [m[2]!.trim(), m[1]!.replaceAll('&amp;', '&')]);
  const chip = (label: RegExp) => chips.find(([l]) => label.test(l!))?.[1];
  assert.equal(chip(/^Niveau/), '/outils?q=quiz&pupil_account=none%2Cclass_code');
  assert.equal(chip(/^Compte élève/), '/outils?q=quiz&level=elementaire');
  // The page lists what the same filters list in the API.
  const api = (await app.inject({ url: `${API}/tools?q=quiz&level=elementaire&pupil_account=none,class_code&per_page=50` })).json();
  for (const tool of api.data) assert.ok(html.includes(`/outils/${tool.slug}"`), tool.slug);
  assert.match(text(html), new RegExp(`${api.meta.total} outils?`));
  // The pupils' age a sentence states is the age filter; a sentence of filters alone leaves no search.
  const age = await app.inject({ url: `/outils?q=${encodeURIComponent('pour mes élèves de CM2 gratuit')}` });
  assert.match(age.body, /<option value="10" selected>/);
  assert.doesNotMatch(age.body, /<input type="search" id="q" name="q" value="[^"]*CM2/);
  assert.match(age.body, /élèves de 10 ans/);
  // Said of a teacher's class, the age keeps the tools the teacher leads too, as the API's
  // meta.query.for_pupils says, and the form shows that choice.
  assert.match(age.body, /<option value="with_consent,teacher_led,unknown" selected>Seuls ou avec leur enseignant, ou à vérifier<\/option>/);
  assert.match(age.body, /Âge : 10 ans, avec l’enseignant, ou à vérifier/);
  const reading = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('pour mes élèves de CM2 gratuit')}` })).json().meta.query;
  assert.deepEqual(reading.for_pupils, ['yes', 'with_consent', 'teacher_led', 'unknown']);
  const led = await app.inject({ url: `/outils?q=${encodeURIComponent('générateur de quiz pour mes élèves de 16 ans')}` });
  assert.ok(led.body.includes('/outils/atelier-quiz"'), 'the teacher-only quiz maker is listed for a teacher’s class');
  assert.ok(!(await app.inject({ url: '/outils?q=g%C3%A9n%C3%A9rateur%20de%20quiz&age=16' })).body.includes('/outils/atelier-quiz"'), 'the age filter alone keeps what pupils use themselves');
  // Without an age, the choice of who uses it is set aside, not refused.
  const alone = await app.inject({ url: '/outils?q=quiz&for_pupils=yes' });
  assert.equal(alone.statusCode, 200);
  assert.match(alone.body, /<option value="" selected>Seuls, avec un accord si besoin<\/option>|<option value="">Seuls, avec un accord si besoin<\/option>/);
});

test('GET /outils › an exam or a school system’s level stays in the box: the page ranks as the API does for the same sentence (« français 3e brevet »: the revision tools first)', async (t) => {
  const { loadContent } = await import('../../src/content/load-content.js');
  const loaded = await loadContent(new URL('../../content', import.meta.url).pathname);
  assert.ok(loaded.ok);
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  const cards = (html: string) => [...html.matchAll(/<a href="\/outils\/([a-z0-9-]+)">/g)].map((m) => m[1]!);
  for (const [q, box] of [['français 3e brevet', 'français brevet'], ['secondaire 2 français', 'secondaire 2 français']] as const) {
    const page = await app.inject({ url: `/outils?q=${encodeURIComponent(q)}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<input type="search" id="q" name="q" value="${box}"`), q);
    const api = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}&per_page=5` })).json();
    assert.deepEqual(cards(page.body).slice(0, 3), api.data.slice(0, 3).map((d: { slug: string }) => d.slug), q);
  }
  // The level the rest of the sentence names is still the level filter.
  assert.match((await app.inject({ url: `/outils?q=${encodeURIComponent('français 3e brevet')}` })).body, /<option value="college" selected>/);
});

test('GET /outils/{slug} › leads with what decides: « Pour vos élèves » first, then the facts with their sources and pages’ dates, then the description', async (t) => {
  const { app } = await buildTestApp(t);
  const html = (await app.inject({ url: '/outils/eau-vive' })).body;
  const at = (marker: string) => {
    const k = html.indexOf(marker);
    assert.ok(k > 0, marker);
    return k;
  };
  const pupils = at('<h2 id="pour-vos-eleves">Pour vos élèves</h2>');
  const facts = at('<h2>Les faits à vérifier</h2>');
  const description = at('<h2>Présentation</h2>');
  assert.ok(at('<h1>') < pupils && pupils < facts && facts < description, 'h1, pupils, facts, description');
  assert.ok(at('Premier paragraphe de description') > description);
  // Each fact read on a page: its source and the date the page gives for itself.
  assert.match(html, /<th scope="row">Où sont les données<\/th><td>Dans l’Union européenne — <a href="https:\/\/eau-vive\.example\.org\/cgu" rel="noopener">source<\/a> \(page du 1 septembre 2026\)<\/td>/);
  assert.match(html, /<th scope="row">Accord d’un parent demandé<\/th><td>Avant 15 ans — <a href="https:\/\/eau-vive\.example\.org\/cgu"/);
  assert.match(html, /<th scope="row">Prix<\/th><td>Gratuit avec options payantes — /);
  assert.doesNotMatch(html, /non renseigné/);
  // A reason from a public text links to the rule on the page, which names the text.
  const band = /<li class="answer-with_consent"><strong>De 10 à 12 ans :<\/strong>[\s\S]*?<\/li>/.exec(html)?.[0] ?? '';
  assert.match(band, /<span class="why">Avant la 4e, les fonctions d&#39;IA générative/);
  assert.match(band, /<a href="#regle-framework-genai-feature">Règle : Cadre d&#39;usage de l&#39;intelligence artificielle en éducation[^<]*<\/a>/);
  assert.match(html, /<dt id="regle-framework-genai-feature">Cadre d&#39;usage de l&#39;intelligence artificielle en éducation[^<]*\([^<)]*ministère de l&#39;Éducation nationale\)<\/dt>/);
  assert.match(html, new RegExp(`<a href="${API}/rules">Toutes les règles`));
  // A tool whose every fact is unknown says so on every row, never a blank.
  const { fixtureDataset } = await import('../helpers/fixture.js');
  const { unknownSchoolFacts } = await import('../../src/domain.js');
  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'quizzy')!.school = unknownSchoolFacts();
  const blank = (await (await buildTestApp(t, { dataset })).app.inject({ url: '/outils/quizzy' })).body;
  const cells = [...blank.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([\s\S]*?)<\/td><\/tr>/g)];
  const unknown = cells.filter((m) => m[2] === '<span class="unknown">inconnu — aucune page lue ne le dit</span>').map((m) => m[1]);
  assert.equal(unknown.length, cells.length - 2, `every school fact: ${unknown.join(', ')}`);
  assert.match(text(/<ul class="pupils">[\s\S]*?<\/ul>/.exec(blank)![0]), /À partir de 3 ans : on ne sait pas encore\. On ne sait pas encore si les élèves/);
});

test('GET /outils › a subject’s word becomes the subject filter only when every tool found has the subject: a tool that only says it stays found', async (t) => {
  const dataset = fixtureDataset();
  const quizzy = dataset.tools.find((tool) => tool.slug === 'quizzy')!;
  // Named with a subject's word, without that subject (as « Auto Multiple Choice (AMC) »).
  dataset.tools.push({ ...structuredClone(quizzy), slug: 'quiz-svt', name: 'Quiz SVT', website_url: 'https://quiz-svt.example.org/', school: { ...structuredClone(quizzy.school), subjects: ['transversal'] } });
  const { app } = await buildTestApp(t, { dataset });
  const html = (await app.inject({ url: `/outils?q=${encodeURIComponent('Quiz SVT')}` })).body;
  assert.match(html, /href="\/outils\/quiz-svt"/);
  assert.match(html, /<input type="search" id="q" name="q" value="Quiz SVT"/);
  assert.doesNotMatch(html, /<option value="svt" selected>/);
  // Where every tool found has the subject (the fixture alone), the word is the subject's filter.
  const { app: plain } = await buildTestApp(t);
  const svt = (await plain.inject({ url: `/outils?q=${encodeURIComponent('simulations SVT')}` })).body;
  assert.match(svt, /<option value="svt" selected>/);
  assert.match(svt, /href="\/outils\/eau-vive"/);
});
