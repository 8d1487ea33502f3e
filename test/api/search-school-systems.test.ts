/**
 * The search over the bundled directory reads every French-speaking school system and its
 * exams (docs/search.md, "Reading a query"): an exam is a level and the work it asks for; the
 * stages of Belgium, Switzerland, Québec and French-speaking Africa are levels; a tool's name
 * typed as it sounds is found; and requests that are not about education find nothing.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { loadContent } from '../../src/content/load-content.js';
import type { Dataset } from '../../src/domain.js';
import { API, buildTestApp } from '../helpers/build-app.js';

interface Page {
  data: Array<{ slug: string }>;
  meta: { query?: { searched: string[]; level: Array<{ slug: string }> } };
}

let bundled: Dataset;
before(async () => {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  assert.ok(loaded.ok);
  bundled = loaded.dataset;
});

type App = Awaited<ReturnType<typeof buildTestApp>>['app'];
const search = async (app: App, q: string): Promise<Page> => {
  const res = await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}&per_page=50` });
  assert.equal(res.statusCode, 200, q);
  return res.json() as Page;
};
const slugs = (page: Page) => page.data.map((t) => t.slug);
const levels = (page: Page) => page.meta.query?.level.map((l) => l.slug) ?? [];

test('GET /tools?q › an exam is read as its level and as the work it asks for: « français 3e brevet » keeps « français », at collège, the revision tools first', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const brevet = await search(app, 'français 3e brevet');
  assert.deepEqual(levels(brevet), ['college']);
  assert.deepEqual(brevet.meta.query?.searched, ['francais']);
  const revision = ['kartable', 'maxicours', 'schoolmouv'];
  assert.ok(slugs(brevet).slice(0, 5).some((s) => revision.includes(s)), `a revision tool in the first five: ${slugs(brevet).slice(0, 10).join(', ')}`);
  // Without the exam, the same words keep their order: the exam moves the revision tools up.
  const without = await search(app, 'français 3e');
  assert.ok(slugs(without).findIndex((s) => revision.includes(s)) > slugs(brevet).findIndex((s) => revision.includes(s)));
  // An exam alone finds the tools of its level, those of its work first.
  const alone = await search(app, 'brevet');
  assert.deepEqual(levels(alone), ['college']);
  assert.ok(slugs(alone).slice(0, 10).some((s) => revision.includes(s)), slugs(alone).slice(0, 10).join(', '));
  // An exam with no level of its own: the tools of its work.
  const delf = await search(app, 'DELF');
  assert.ok(delf.data.length > 0 && slugs(delf).includes('tv5monde-apprendre-le-francais'), slugs(delf).join(', '));
  // Québec's exams (the ministry's, the cégep's épreuve uniforme): the tools made for Québec's French first.
  const euf = await search(app, 'cégep épreuve uniforme de français');
  assert.deepEqual(levels(euf), ['superieur']);
  assert.deepEqual(euf.meta.query?.searched, ['francais']);
  assert.ok(['antidote', 'usito', 'vitrine-linguistique'].every((s) => slugs(euf).slice(0, 5).includes(s)), slugs(euf).slice(0, 5).join(', '));
  // A track's diploma beside a subject names the class: its tools are unchanged (« gestion bac pro »).
  assert.deepEqual(slugs(await search(app, 'gestion bac pro')).slice(0, 3), ['odoo', 'dolibarr', 'mon-entreprise-urssaf']);
});

test('GET /tools?q › the stages of Belgium, Switzerland, Québec and French-speaking Africa are levels; the country is no word to find', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const cases: Array<[string, string[]]> = [
    ['préparer le CEB en 6e primaire', ['elementaire']],
    ['Terminale D au Cameroun', ['lycee']],
    ['secondaire 2', ['college']],
    ['5e année', ['elementaire']],
    ['cégep', ['superieur']],
    ['CE1D', ['college']],
    ['CESS', ['lycee']],
    ['BEPC', ['college']],
    ['CM2', ['elementaire']],
    ['sec 3 mathématiques', ['college']],
    ['rhéto français', ['lycee']],
    ['3e cycle du primaire', ['elementaire']],
    // Canada outside Québec counts its years from the first: 9e-12e année are its secondary,
    // 9e-11e année also the Swiss cycle d'orientation.
    ['12e année chimie', ['lycee']],
    ['11e année chimie Nouveau-Brunswick', ['college', 'lycee']],
    ['8e année fractions', ['elementaire', 'college']],
  ];
  for (const [q, expected] of cases) {
    const page = await search(app, q);
    assert.deepEqual(levels(page), expected, q);
    assert.ok(page.data.length > 0, `${q}: finds tools`);
  }
  assert.deepEqual((await search(app, 'Terminale D au Cameroun')).meta.query?.searched, []);
  // Named alone, a country no tool names says only where the teacher writes from: the lesson's
  // words are searched, and the graphing tools answer « étude de fonctions ».
  const ivoire = await search(app, 'Terminale C Côte d’Ivoire étude de fonctions');
  assert.deepEqual(levels(ivoire), ['lycee']);
  assert.ok(!ivoire.meta.query?.searched.some((w) => /cote|ivoire/.test(w)), ivoire.meta.query?.searched.join());
  assert.ok(slugs(ivoire).slice(0, 5).some((s) => s === 'geogebra' || s === 'desmos'), slugs(ivoire).slice(0, 5).join());
  assert.deepEqual((await search(app, 'CM2 calcul mental Sénégal')).meta.query?.searched, ['calcul', 'mental']);
  // So does a province or a territory (« Nouveau-Brunswick », « Nouvelle-Calédonie »): PhET answers the chemistry.
  const brunswick = await search(app, '11e année chimie Nouveau-Brunswick');
  assert.deepEqual(brunswick.meta.query?.searched, ['chimie']);
  assert.ok(slugs(brunswick).slice(0, 5).includes('phet'), slugs(brunswick).slice(0, 5).join());
  assert.deepEqual((await search(app, 'SVT 4e Nouvelle-Calédonie')).meta.query?.searched, ['svt']);
});

test('GET /tools?q › Belgium or Switzerland named beside a need ranks its tools first without requiring them; « initiation » says one starts, not what', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const programming = new Set(bundled.tools.filter((tool) => tool.category === 'programmation-et-informatique' || tool.tags.some((tag) => tag.startsWith('programmation'))).map((tool) => tool.slug));
  assert.ok(programming.size >= 5);
  for (const q of ['1re secondaire Belgique programmation', '1re secondaire Belgique initiation programmation']) {
    const page = await search(app, q);
    assert.deepEqual(page.meta.query?.searched, ['programmation'], q);
    assert.ok(slugs(page).slice(0, 5).every((slug) => programming.has(slug)), `${q}: ${slugs(page).slice(0, 5).join(', ')}`);
  }
  // Named alone, the country lists the tools made for its schools.
  const belgium = await search(app, 'Belgique');
  assert.ok(belgium.data.length > 0 && slugs(belgium).includes('smartschool'), slugs(belgium).join(', '));
  // ScratchJr, for the youngest, answers a beginner's coding at maternelle.
  const codage = await search(app, 'grande section initiation au codage');
  assert.deepEqual(codage.meta.query?.searched, ['codage']);
  assert.equal(slugs(codage)[0], 'scratchjr', slugs(codage).slice(0, 5).join(', '));
});

test('GET /tools?q › a lesson’s topic no tool holds with the kind of tool asked for: the tools of that kind (« quiz sur les tables de multiplication par 7 »)', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const tagged = (tag: string) => new Set(bundled.tools.filter((tool) => tool.tags.includes(tag)).map((tool) => tool.slug));
  for (const [q, tag] of [['quiz sur les tables de multiplication par 7', 'quiz'], ['frise chronologique sur les présidents de la Ve République', 'frise-chronologique']] as const) {
    const top = slugs(await search(app, q)).slice(0, 3);
    assert.ok(top.length > 0 && top.some((slug) => tagged(tag).has(slug)), `${q}: ${top.join(', ')}`);
  }
  // The topic still narrows when tools of that kind hold it.
  assert.ok(slugs(await search(app, 'quiz sur les fractions')).length < tagged('quiz').size);
});

test('GET /tools?q › a pupil’s work done by ChatGPT asks for a detector', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const detectors = new Set(bundled.tools.filter((tool) => /détect/i.test(tool.short_description) && /IA|intelligence artificielle/.test(tool.short_description)).map((tool) => tool.slug));
  assert.ok(detectors.size >= 2);
  for (const q of ['comment savoir si un eleve a fait son devoir avec chatgpt', 'mes élèves ont triché avec ChatGPT', 'comment savoir si une copie a ete ecrite par une IA ?']) {
    const top = slugs(await search(app, q)).slice(0, 3);
    assert.ok(top.length > 0 && top.every((slug) => detectors.has(slug)), `${q}: ${top.join(', ')}`);
  }
});

test('GET /tools?q › a level only one school system names (« secondaire 2 », « 9H ») ranks that system’s tools first', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const naming = (pattern: RegExp) => new Set(bundled.tools.filter((tool) => pattern.test(`${tool.name} ${tool.short_description} ${tool.tags.join(' ')}`)).map((tool) => tool.slug));
  for (const [q, pattern] of [['secondaire 2 français', /Québec|québécois/i], ['9H allemand', /Suisse|romand/i]] as const) {
    const top = slugs(await search(app, q)).slice(0, 3);
    assert.ok(top.some((slug) => naming(pattern).has(slug)), `${q}: ${top.join(', ')}`);
  }
});

test('GET /tools?q › a tool’s name typed as it sounds is found (« phyfox », « jeniali »)', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  assert.equal(slugs(await search(app, 'phyfox'))[0], 'phyphox');
  assert.equal(slugs(await search(app, 'jeniali'))[0], 'genially');
  assert.equal(slugs(await search(app, 'phyfox physique'))[0], 'phyphox');
});

test('GET /tools?q › requests that are not about education find nothing, at most one of them something', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  assert.deepEqual(slugs(await search(app, 'réserver un billet de train')), []);
  assert.deepEqual(slugs(await search(app, 'code de la route')), []);
  const requests = [
    'recette de crêpes sans gluten', 'assurance auto pas chère pour jeune conducteur', 'météo demain à Lyon',
    'horaires de la piscine municipale', 'prendre rendez-vous chez le dentiste', 'meilleur forfait mobile 5G',
    'réparer une fuite sous l’évier', 'location voiture aéroport Nice', 'résultats du loto ce soir',
    'acheter des chaussures de running', 'trouver un plombier le dimanche', 'renouveler mon passeport',
    'idée de menu pour la semaine', 'tarif d’un taxi pour la gare', 'horoscope du jour', 'best pizza delivery near me',
    'cheap flights to Paris in June', 'car insurance quote online', 'weather forecast tomorrow London',
    'vendre ma voiture d’occasion', 'réserver une table au restaurant', 'changer le pneu d’une voiture',
    'modèle de lettre de résiliation d’abonnement à une salle de sport',
  ];
  const found: string[] = [];
  for (const q of requests) if ((await search(app, q)).data.length > 0) found.push(q);
  assert.ok(found.length <= 1, `found something for: ${found.join('; ')}`);
});

test('GET /tools?q › a request that names no level, subject or class, whose best tool holds little of its words, finds nothing; needs without a word of school still find their tools', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const requests = [
    'TV programme schedule tonight France 2', 'difference between grade A and grade AA eggs',
    'restaurant italien avec une bonne note près de la gare', 'refaire sa carte grise en ligne après un déménagement',
    // `grise` is found as typed in one long text: its corrections to « frise », « prise » are other words.
    'carte grise changement d’adresse démarche en ligne',
  ];
  for (const q of requests) assert.deepEqual(slugs(await search(app, q)), [], q);
  const needs: Array<[string, string]> = [
    ['text to speech natural french voice', 'naturalreader'], ['logiciel gratuit pour monter une vidéo', 'shotcut'],
    ['prise de notes collaborative en temps réel', 'etherpad'], ['open source alternative to Kahoot for live quizzes', 'qcmcam'],
    ['tableau blanc en ligne pour réunion', 'tldraw'], ['annoter un pdf sur tablette', 'goodnotes'],
  ];
  for (const [q, slug] of needs) assert.ok(slugs(await search(app, q)).slice(0, 5).includes(slug), `${q}: ${slugs(await search(app, q)).slice(0, 5).join(', ')}`);
});

test('GET /tools?q › where a tool runs, said around a need (`that runs in`, `works on`), is no word to find: an agent’s `free Photoshop alternative that runs in browser` finds Photopea', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const photoshop = await search(app, 'free Photoshop alternative that runs in browser');
  assert.ok(!photoshop.meta.query?.searched.includes('runs'), photoshop.meta.query?.searched.join(' '));
  assert.ok(slugs(photoshop).slice(0, 3).includes('photopea'), slugs(photoshop).slice(0, 5).join(', '));
  // `run` alone stays a word of the need.
  assert.ok((await search(app, 'run LLM locally')).meta.query?.searched.includes('run'));
});

test('GET /tools?q › a tool named after a comparative (« mieux que Kahoot », `better than Quizlet`) asks for tools like it, without it', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  for (const [q, named] of [['un outil de quiz mieux que Kahoot', 'kahoot'], ['something better than Quizlet for flashcards', 'quizlet'], ['traducteur plus fiable que Google Traduction', 'google-traduction']]) {
    const page = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q!)}&per_page=50` })).json() as Page & { meta: { query: { similar_to: Array<{ slug: string }> } } };
    assert.deepEqual(page.meta.query.similar_to.map((s) => s.slug), [named], q);
    assert.ok(page.data.length >= 5 && !slugs(page).includes(named!), `${q}: ${slugs(page).slice(0, 5).join(', ')}`);
  }
});

test('GET /tools?q › « c quoi le mieux pour » is the question, not a word to find; « qui ne sait pas lire » is « sans savoir lire »', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const page = await search(app, 'c quoi le mieux pour apprendre a coder a un enfant de 6 ans qui sait pas encore lire');
  assert.ok(!page.meta.query?.searched.includes('mieux'), page.meta.query?.searched.join(' '));
  assert.ok(slugs(page).slice(0, 3).includes('scratchjr'), slugs(page).slice(0, 5).join(', '));
});

test('GET /tools?q › how pupils do what they do (« qui déchiffrent mal ») is no word to find; « déchiffrer » is « décoder »', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const page = await search(app, 'appli de lecture pour mes CP qui déchiffrent mal');
  assert.ok(!page.meta.query?.searched.includes('mal'), page.meta.query?.searched.join(' '));
  const top = slugs(page).slice(0, 3);
  assert.ok(top.includes('lalilo') && top.includes('lirecouleur'), top.join(', '));
});

test('GET /tools?q › the conditional of wanting (« voudrais », « aimerait »), wherever it stands in the sentence, is no word to find', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const page = await search(app, 'pour un colloque je prépare des notes et voudrais transformer mes paragraphes en schémas');
  assert.ok(!page.meta.query?.searched.includes('voudrais'), page.meta.query?.searched.join(' '));
  assert.ok(page.meta.query?.searched.includes('schemas'));
});

test('GET /tools?q › a lesson’s topic found only through a correction is found nowhere: « carte mentale sur le système solaire » finds the mind-map tools (`solaire` is no « scolaire »)', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const solar = await search(app, 'carte mentale sur le système solaire');
  assert.ok(['mindmeister', 'coggle', 'xmind'].every((s) => slugs(solar).slice(0, 5).includes(s)), slugs(solar).slice(0, 10).join(', '));
  const quiz = await search(app, 'quiz sur le système solaire');
  assert.ok(quiz.data.length >= 5 && !slugs(quiz).slice(0, 5).includes('pronote'), slugs(quiz).slice(0, 10).join(', '));
});

test('GET /tools?q › a level’s word in an expression with another sense is no level: « seconde guerre mondiale », « la première fois », « première classe » of a train', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  // The topic of a history lesson: its words are searched, at no level.
  const war = await search(app, 'frise seconde guerre mondiale');
  assert.deepEqual(levels(war), []);
  assert.ok(war.meta.query?.searched.includes('seconde'));
  assert.ok(war.data.length >= 5, `found ${war.data.length}`);
  assert.deepEqual(levels(await search(app, 'la première fois que j’utilise un TBI')), []);
  assert.deepEqual(levels(await search(app, 'chronomètre à la seconde près')), []);
  // A travel class reads no pupils and no level: the request is for something else.
  const train = await search(app, 'billet de train première classe Paris Marseille pas cher');
  assert.deepEqual(levels(train), []);
  assert.deepEqual(slugs(train), []);
  // Nor does a family's school allowance; the school years themselves still read as levels.
  assert.deepEqual(slugs(await search(app, 'montant de l’allocation de rentrée scolaire pour un lycéen')), []);
  assert.deepEqual(levels(await search(app, 'quiz pour mes élèves de première')), ['lycee']);
  assert.deepEqual(levels(await search(app, 'ma classe de seconde SVT')), ['lycee']);
});

test('GET /tools?q › « kids », « enfants » say for whom, not that a request is about teaching: a children’s need outside school finds nothing, a learning need still finds tools', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  assert.deepEqual(slugs(await search(app, 'lice treatment that works for kids in kindergarten')), []);
  assert.ok(slugs(await search(app, 'coding for children')).includes('scratchjr'));
  assert.ok(slugs(await search(app, 'jeux de maths pour enfants')).length >= 5);
});

test('GET /tools?q › an exam with no level (`DELF`): the tools whose file names the exam come first among the tools of its work', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const naming = bundled.tools.filter((tool) => /\bDELF\b/.test(`${tool.short_description} ${tool.long_description}`)).map((tool) => tool.slug);
  assert.ok(naming.length >= 1);
  for (const q of ['DELF B1', 'préparation DELF A2']) {
    const found = slugs(await search(app, q));
    assert.deepEqual(found.slice(0, naming.length).sort(), [...naming].sort(), `${q}: ${found.slice(0, 5).join(', ')}`);
  }
});

test('GET /tools?q › a keyword few tools hold names the need, beside words most tools say or in a long sentence: « créer une bibliographie » finds Zotero', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  for (const q of [
    'créer une bibliographie',
    'produire une bibliographie propre',
    'Professeure documentaliste en lycée, je veux apprendre aux élèves à garder la trace de leurs sources et à produire une bibliographie propre pour le Grand oral, avec un logiciel libre.',
  ]) {
    const found = slugs(await search(app, q));
    assert.ok(found.slice(0, 3).includes('zotero'), `${q}: ${found.slice(0, 5).join(', ')}`);
  }
  // Two words that never meet where a tool says what it is still find nothing.
  assert.deepEqual(slugs(await search(app, 'code de la route')), []);
});

test('GET /tools?q › two keywords few tools hold find their tools even where no tool says both where it matters: « une copie rédigée par une IA », « moteur de recherche sans danger »', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const detectors = slugs(await search(app, 'Comment savoir si une copie a été rédigée par une IA ?')).slice(0, 5);
  assert.ok(['gptzero', 'compilatio', 'copyleaks', 'turnitin'].filter((s) => detectors.includes(s)).length >= 3, detectors.join(', '));
  assert.equal(slugs(await search(app, 'Existe-t-il un moteur de recherche sans danger pour les enfants ?'))[0], 'qwant-junior');
});

test('GET /tools?q › « en direct » finds what tools say « en temps réel »; « directement » is no word to find', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  assert.equal(slugs(await search(app, 'alternative Kahoot logiciel libre quiz en direct classe'))[0], 'digistorm');
  const python = await search(app, 'écrire et lancer du Python directement dans le navigateur');
  assert.ok(!python.meta.query?.searched.includes('directement'), python.meta.query?.searched.join(' '));
});

test('GET /tools?q › a sentence that names a keyword few tools hold is a need, whatever its other words (places, a patient): a speech therapist finds ARASAAC; a short request is not excused so', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const found = slugs(await search(app, 'Orthophoniste à Saint-Denis de La Réunion, je voudrais des pictogrammes gratuits pour fabriquer un emploi du temps visuel et des supports de communication pour un petit patient autiste.'));
  assert.equal(found[0], 'arasaac', found.slice(0, 5).join(', '));
  assert.deepEqual(slugs(await search(app, 'Premier League scores today')), []);
});

test('GET /tools?q › where a tool runs (`on my laptop`, « sur ordinateur ») is no word to find', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const llm = await search(app, 'run LLM locally on laptop offline privacy');
  assert.ok(slugs(llm).includes('ollama'), slugs(llm).join(', '));
  assert.ok(!llm.meta.query?.searched.includes('laptop'));
  assert.equal(slugs(await search(app, 'maternelle dessin sur ordinateur'))[0], 'tux-paint');
  // Nor is where the pupil works (« à la maison », `at home`, « l'ordinateur familial ») or that he struggles (« a du mal à »).
  for (const q of ['Ma fille est en CP et a du mal à lire ; je cherche un logiciel gratuit pour qu’elle s’entraîne toute seule à la maison, sur l’ordinateur familial.', 'my son struggles with reading at home']) {
    const searched: string[] = (await search(app, q)).meta.query?.searched ?? [];
    for (const word of ['maison', 'mal', 'familial', 'home']) assert.ok(!searched.includes(word), `${q}: ${searched.join(' ')}`);
  }
});

test('GET /tools?q › a question typed fast (« c quoi un bon site pour… ») searches its need only', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const body = await search(app, 'c quoi un bon site pour faire une frise chronologique interactive ?');
  assert.deepEqual(body.meta.query?.searched, ['frise', 'chronologique', 'interactive']);
  assert.equal(slugs(body)[0], 'timelinejs', slugs(body).slice(0, 5).join(', '));
});

test('GET /tools?q › « la licence » of an image is no year of university, the franc CFA no centre for apprentices; « licence histoire », « apprentis en CFA » still are levels', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const images = await search(app, 'apprendre aux élèves à trouver des images réutilisables et à indiquer l’auteur et la licence');
  assert.ok(!levels(images).includes('superieur'), levels(images).join(', '));
  assert.ok(slugs(images).slice(0, 3).includes('openverse'), slugs(images).slice(0, 5).join(', '));
  assert.deepEqual(levels(await search(app, 'licence histoire')), ['superieur']);
  // Nor is the franc CFA a centre for apprentices (« CFA » alone is: lycée professionnel).
  const currency = await search(app, 'taux de change euro franc CFA aujourd’hui');
  assert.deepEqual(levels(currency), []);
  assert.deepEqual(slugs(currency), []);
  assert.deepEqual(levels(await search(app, 'apprentis en CFA')), ['lycee-pro']);
});

test('GET /tools?q › « sciences humaines », « sciences de l’éducation » are disciplines of higher education, not physics, SVT or technology; « sciences » alone still is', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const subjects = (body: Page) => (body.meta.query as unknown as { subject: Array<{ slug: string }> }).subject.map((s) => s.slug);
  for (const q of ['étudiante en sciences humaines au cégep, logiciel de bibliographie', 'master sciences de l’éducation mémoire bibliographie']) {
    const body = await search(app, q);
    assert.deepEqual(subjects(body), [], q);
    assert.ok(body.data.length > 0, q);
  }
  assert.ok(subjects(await search(app, 'sciences CM2 expériences')).length > 0, 'sciences alone is a subject');
});

test('GET /tools?q › beside a level named as a class and a word naming a kind of tool, up to two words no tool holds are the lesson’s topic: « 4e théorème de Pythagore exercices »; a child’s age is no such level', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const pythagore = await search(app, '4e théorème de Pythagore exercices');
  assert.deepEqual(levels(pythagore), ['college']);
  assert.ok(['mathalea', 'mathenpoche', 'labomep'].some((s) => slugs(pythagore).slice(0, 5).includes(s)), slugs(pythagore).slice(0, 10).join(', '));
  assert.ok((await search(app, '5e quiz Vercingétorix')).data.length > 0, 'a quiz on a topic no tool names');
  // Not beside a child's age, whose level says whose need it is, not that it is school's.
  assert.deepEqual(slugs(await search(app, 'inscrire ma fille de 8 ans au club de foot le mercredi')), []);
  // Nor three words no tool holds.
  assert.deepEqual(slugs(await search(app, '6e liste fournitures pas chère')), []);
});

test('GET /tools?q › what teachers call a need finds the tools that name it their way: « harcèlement » finds the tools against « cyberharcèlement », « anglicisme » the Québec references that flag them', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  for (const q of ['harcèlement', 'prévention du harcèlement au collège']) assert.ok(slugs(await search(app, q)).includes('internet-sans-crainte'), q);
  assert.deepEqual(slugs(await search(app, 'anglicisme')).sort(), ['antidote', 'usito', 'vitrine-linguistique']);
});

test('GET /tools?q › a short query starting with a kind of tool is that tool and its topic; a longer one starting with such a word, in a request about something else, finds nothing', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  assert.ok(slugs(await search(app, 'frise seconde guerre mondiale')).includes('timelinejs'));
  assert.ok(slugs(await search(app, 'carte mentale révolution française')).slice(0, 5).includes('mindmeister'));
  // An agent's keywords, however many, are that kind of tool and what it should do.
  assert.ok(slugs(await search(app, 'language learning reading imported articles known-word tracking')).length > 0);
  for (const q of ['plateforme de streaming pour regarder la Ligue 1 ce week-end', 'modèle de note de frais à remplir pour un déplacement professionnel']) {
    assert.deepEqual(slugs(await search(app, q)), [], q);
  }
});

test('GET /tools?q › of two words found, a third no tool holds is the lesson’s topic in a query about school: « nuage de mots émotions ressenties en classe »', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const clouds = slugs(await search(app, 'nuage de mots émotions ressenties en classe'));
  assert.ok(['mentimeter', 'wooclap', 'digiwords'].every((s) => clouds.slice(0, 10).includes(s)), clouds.slice(0, 10).join(', '));
  // Not about school, such a word still finds nothing (`hair salon booking`).
  assert.deepEqual(slugs(await search(app, 'hair salon booking')), []);
});

test('GET /tools?q › who is taught, found in no tool (« stagiaires »), is no sign of a request for something else; nor is the phone one uses', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  for (const q of ['nuage de mots pour mes stagiaires', 'carte mentale avec mes stagiaires']) {
    const page = await search(app, q);
    assert.ok(page.data.length > 0, `${q}: finds tools`);
    assert.ok(page.meta.query?.searched.includes('stagiaires'), page.meta.query?.searched.join());
  }
  assert.ok(slugs(await search(app, 'nuage de mots pour mes stagiaires')).slice(0, 10).includes('digistorm'));
  // « sur mon téléphone » says where the tool runs, as « sur ordinateur » does: not a word to find.
  const phone = await search(app, 'cartes mémoire sur mon téléphone');
  assert.deepEqual(phone.meta.query?.searched, ['cartes', 'memoire']);
  assert.ok(slugs(phone).slice(0, 10).includes('anki'), slugs(phone).slice(0, 10).join());
});

test('GET /tools?q › a question typed as a text message (« c koi le mieux pr … », « sa existe … ») searches what it asks for', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const sms = await search(app, 'c koi le mieux pr faire des exos de maths en ligne gratuits a mon fils en 5eme ?');
  assert.ok(!sms.meta.query?.searched.some((w) => ['c', 'koi', 'pr'].includes(w)), sms.meta.query?.searched.join());
  assert.ok(slugs(sms).slice(0, 10).includes('mathalea'), slugs(sms).slice(0, 10).join());
  const dictation = await search(app, 'sa existe un site pour faire des dictées en ligne a mes eleves de CM2 ?');
  assert.ok(!dictation.meta.query?.searched.includes('existe'), dictation.meta.query?.searched.join());
});

test('GET /tools?q › a child’s age alone, in a short request about something else, is no sign it is about school; a parent’s sentence still finds its tools', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  for (const q of ['school uniform sale size 10 years', 'which health insurance covers braces for a 13 year old']) {
    assert.deepEqual(slugs(await search(app, q)), [], q);
  }
  assert.ok(slugs(await search(app, 'appli lecture enfant 6 ans')).length > 0);
  const parent = await search(app, 'Ma fille de 5 ans adore la tablette ; je voudrais une appli gratuite pour l’initier à la programmation alors qu’elle ne sait pas encore lire, sans pub');
  assert.equal(slugs(parent)[0], 'scratchjr', slugs(parent).slice(0, 5).join(', '));
});
