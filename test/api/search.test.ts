/**
 * GET /tools?q=: what the search finds and in which order (docs/search.md), on the fixture
 * and its synonyms file (test/helpers/fixture.ts), through the public API.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { importContent } from '../../src/content/import-content.js';
import type { Dataset, ToolRecord } from '../../src/domain.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset, writeContent } from '../helpers/fixture.js';

type App = Awaited<ReturnType<typeof buildTestApp>>['app'];
const names = (body: { data: Array<{ name: string }> }) => body.data.map((t) => t.name);
const search = async (app: App, q: string, extra = '') => names((await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}${extra}` })).json());

/** A long description of `text` and two paragraphs more: as long as the content's rules ask. */
const long = (text: string) => `${text}\n\nDeuxième paragraphe assez long pour la validation, sur l'usage en classe avec les élèves et les enseignants, les séances et les projets de l'année.\n\nTroisième paragraphe : les limites de l'outil, la protection des données personnelles des élèves et la langue de son interface, en français.`;

/** The app over the fixture and these tools, built from the fixture's dataset (`variant`). */
async function appWith(t: TestContext, tools: (dataset: Dataset) => ToolRecord[]): Promise<App> {
  const dataset = fixtureDataset();
  dataset.tools.push(...tools(dataset));
  return (await buildTestApp(t, { dataset })).app;
}

/** A tool with some of its school facts changed. */
const withSchool = (tool: ToolRecord, facts: Partial<ToolRecord['school']>): ToolRecord => ({ ...tool, school: { ...tool.school, ...facts } });

/** A fixture tool under another slug, name and short description. */
function variant(dataset: Dataset, slug: string, name: string, short_description: string): ToolRecord {
  const base = dataset.tools.find((t) => t.slug === 'quizzy')!;
  return { ...base, slug, name, short_description, website_url: `https://${slug}.example.org/`, education_program: null, former_slugs: [] };
}

test('GET /tools?q › typing errors: one in words of 4+ letters, two in 8+, none below', async (t) => {
  const { app } = await buildTestApp(t);
  assert.equal((await search(app, 'quizy'))[0], 'Quizzy', 'a letter missing');
  assert.deepEqual(await search(app, 'zebra'), ['Zèbre Math'], 'a letter replaced');
  assert.deepEqual(await search(app, 'simulatoins'), ['Eau Vive'], 'two letters swapped');
  assert.deepEqual(await search(app, 'orthografe'), ['Écrire Mieux'], 'two errors in a word of 10 letters');
  assert.deepEqual(await search(app, 'zebbra'), [], 'two errors in a word of 6 letters are too many');
  assert.deepEqual(await search(app, 'ecu'), [], 'no correction below 4 letters (eau)');
  // A word joined to another by a hyphen is a compound of the language, matched as typed.
  assert.deepEqual(await search(app, 'eau-simulatoins'), [], 'a compound is not corrected into two other words');
  assert.deepEqual(await search(app, 'eau simulatoins'), ['Eau Vive'], 'the same words apart are');
  assert.equal((await search(app, 'eau-vive'))[0], 'Eau Vive', 'a compound as typed is found');
});

test('GET /tools?q › an exact word outranks a corrected one, whatever the name order', async (t) => {
  const app = await appWith(t, (dataset) => [
    variant(dataset, 'alpha', 'Alpha', 'Outil de classe pour dessiner un graphe et le commenter avec les élèves du collège.'),
    variant(dataset, 'aaa', 'Aaa', 'Outil de classe pour observer une grappe de raisin et la dessiner avec les élèves.'),
  ]);
  assert.deepEqual(await search(app, 'graphe'), ['Alpha', 'Aaa']);
  assert.deepEqual(await search(app, 'grappe'), ['Aaa', 'Alpha']);
});

test('GET /tools?q › a correction in a description does not outrank the word as typed in a long description', async (t) => {
  const app = await appWith(t, (dataset) => [
    variant(dataset, 'aaa-recits', 'Aaa Récits', 'Un atelier pour écrire des fictions à plusieurs avec la classe.'),
    { ...variant(dataset, 'zzz-nombres', 'Zzz Nombres', 'Des manipulations de nombres en ligne pour le cycle 3.'), long_description: long('Des barres et des disques pour comparer des fractions, les additionner et les placer sur une droite graduée au tableau.') },
  ]);
  // `fictions` is `fractions` within two errors; `fractions` itself is found, in a long description.
  assert.deepEqual(await search(app, 'fractions'), ['Zzz Nombres', 'Aaa Récits']);
  // A word found nowhere as typed: its corrections rank as before, by where they are found.
  assert.deepEqual(await search(app, 'fictoins'), ['Aaa Récits']);
});

test('GET /tools?q › whole words, not substrings; only the last word is completed, unless typed as an acronym', async (t) => {
  // A tool whose name completes `quiz` and whose category is not about quizzes (the category's
  // name is searched with the tags: Quizzy, in « Quiz et interaction », holds the word itself).
  const dataset = fixtureDataset();
  dataset.tools.push({ ...variant(dataset, 'quiziniere', 'Quizinière', 'Atelier pour écrire des textes à plusieurs mains avec la classe.'), category: 'ecriture' });
  const { app } = await buildTestApp(t, { dataset });
  assert.deepEqual(await search(app, 'ent'), [], '"ent" is inside "enseignants" but is no word of any tool');
  assert.deepEqual(await search(app, 'messag'), ['École Test'], 'search as you type: messagerie');
  assert.equal((await search(app, 'ecole messag'))[0], 'École Test');
  assert.deepEqual(await search(app, 'messag ecole'), [], 'a word before the last is not completed');
  assert.ok((await search(app, 'quiz')).includes('Quizinière'), 'quiz completes to quiziniere');
  assert.ok(!(await search(app, 'QUIZ')).includes('Quizinière'), 'QUIZ, typed as an acronym, is a whole word');
});

test('GET /tools?q › plurals, feminines and inflections meet; elisions are ignored', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await search(app, 'fiche'), ['Eau Vive'], 'fiches');
  assert.deepEqual(await search(app, 'simulation'), ['Eau Vive'], 'Simulations');
  assert.deepEqual(await search(app, 'progressive'), ['Zèbre Math'], 'progressifs');
  assert.deepEqual(await search(app, 'carnets'), ['Élève Plus'], 'carnet');
  assert.deepEqual(await search(app, "l'eau"), ['Eau Vive']);
  assert.deepEqual(await search(app, "d'orthographe"), ['Écrire Mieux']);
});

test('GET /tools?q › a verb in the third person plural finds its infinitive and its family (« que mes élèves révisent »)', async (t) => {
  const app = await appWith(t, (dataset) => [
    variant(dataset, 'zzz-revisions', 'Zzz Révisions', 'Des fiches pour réviser les leçons avant un contrôle, à la maison ou en classe.'),
    variant(dataset, 'zzz-notes', 'Zzz Notes', 'Pour noter les copies et rendre les résultats aux familles.'),
  ]);
  // « faire réviser les élèves » (Quiz Master) and « réviser les leçons »: the verb's own forms.
  assert.deepEqual(new Set(await search(app, 'révisent')), new Set(['Zzz Révisions', 'Quiz Master']));
  assert.equal((await search(app, 'révisent leurs leçons'))[0], 'Zzz Révisions');
  // Beyond the reach of a typing error (one in a word of six letters): `notent`, « noter ».
  assert.deepEqual(await search(app, 'notent'), ['Zzz Notes']);
  // Not a verb: a word in -ment is what it is.
  assert.deepEqual(await search(app, 'comment'), []);
});

test('GET /tools?q › synonyms from content/synonyms.yaml: families, equivalents, one-way expansions', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await search(app, 'corriger'), ['Écrire Mieux'], 'family: corriger finds Correcteur');
  assert.deepEqual(await search(app, 'mental math'), ['Zèbre Math'], 'equivalent: calcul mental');
  assert.deepEqual(await search(app, 'formative assessment'), ['Atelier'], 'equivalent: évaluation formative');
  assert.deepEqual(await search(app, 'SVT'), ['Eau Vive'], 'expansion: SVT finds cycle de l’eau');
  // `sciences de la vie` names the subject svt: it finds Eau Vive by its subject, not through the expansion.
  assert.deepEqual(await search(app, 'sciences de la vie'), ['Eau Vive']);
});

test('GET /tools?q › an expansion is one way', async (t) => {
  const dataset = fixtureDataset();
  dataset.tools.push(variant(dataset, 'labo-svt', 'Labo', 'Des expériences de SVT à refaire en classe, avec des fiches pour chaque séance.'));
  const { app } = await buildTestApp(t, { dataset });
  assert.ok((await search(app, 'SVT')).includes('Labo'));
  assert.ok(!(await search(app, "cycle de l'eau")).includes('Labo'), 'cycle de l’eau does not find what SVT finds');
});

test('GET /tools?q › synonyms are content: a new import changes what the search finds', async (t) => {
  const { app, store, directory, contentDir } = await buildTestApp(t);
  assert.deepEqual(await search(app, 'logbook'), []);
  const dataset = fixtureDataset();
  dataset.synonyms.equivalents.push(['carnet de bord', 'logbook']);
  await writeContent(contentDir, dataset);
  assert.ok((await importContent(store, contentDir)).ok);
  assert.ok(await directory.refresh());
  assert.deepEqual(await search(app, 'logbook'), ['Élève Plus']);
});

test('GET /tools?q › stop words need not match, unless the query has nothing else', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await search(app, 'un quiz pour la classe'), await search(app, 'quiz classe'));
  assert.deepEqual(await search(app, 'the quiz'), await search(app, 'quiz'), 'English stop words too');
  const pour = (await app.inject({ url: `${API}/tools?q=pour` })).json();
  assert.equal(pour.meta.total, 8, 'a query of stop words only matches them as words');
});

test('GET /tools?q › tools holding every word first; fewer than a page: those missing one follow', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await search(app, 'cycle eau'), ['Eau Vive', 'Zèbre Math'], 'Zèbre Math has "cycle", not "eau"');
  assert.deepEqual(await search(app, 'quiz eau simulation'), ['Eau Vive'], 'nobody holds the three: those holding two');
  assert.deepEqual(await search(app, 'recette de cuisine'), [], 'no plausible match: nothing');
  assert.deepEqual(await search(app, 'cycle zzz'), [], 'two words, one found nowhere: nothing');
  assert.deepEqual(new Set(await search(app, 'simulation orthographe')), new Set(['Eau Vive', 'Écrire Mieux']), 'two words, each found somewhere, never together: either');
  assert.deepEqual(await search(app, 'simulation ortografe'), [], 'a word found only through a correction does not count for that');
  assert.deepEqual(await search(app, 'simulation orthographe zzzz'), [], 'nor beside a word found nowhere');
  assert.deepEqual(await search(app, 'simulation orthographe messagerie'), [], 'three words, no tool holding two of them: nothing');
});

test('GET /tools?q › filters narrow the search and the order stays the relevance order', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await search(app, 'quiz', '&pricing=free'), ['Quizzy']);
  assert.deepEqual(await search(app, 'quiz', '&category=sciences'), ['Zèbre Math']);
  assert.deepEqual(await search(app, 'quiz', '&has_education_pricing=1'), ['Quizzy', 'Atelier']);
});

test('property › adding a filter to a search never adds a tool', async (t) => {
  const { app } = await buildTestApp(t);
  const q = fc.constantFrom('quiz', 'quizy', 'eleve', 'cycle eau', 'mental math', 'SVT', 'de la', 'messag', 'l’eau', 'quiz eau simulation', 'classe eleves', 'corriger');
  const filter = fc.constantFrom('category=quiz', 'category=ecriture,sciences', 'pricing=free', 'pricing=paid,enterprise', 'has_education_pricing=1', 'sort=name', 'sort=-updated_at');
  await fc.assert(
    fc.asyncProperty(q, filter, async (text, f) => {
      const all = await search(app, text, '&per_page=100');
      const narrowed = await search(app, text, `&per_page=100&${f}`);
      assert.ok(narrowed.every((name) => all.includes(name)), `${text} & ${f}: ${narrowed} ⊄ ${all}`);
    }),
    { numRuns: 200 },
  );
});

test('GET /tools?q › a need in a sentence: conversation set aside, levels and subjects read, meta.query says what was understood', async (t) => {
  const { app } = await buildTestApp(t);
  const body = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('Je cherche un outil gratuit pour la SVT au lycée')}` })).json();
  assert.deepEqual(names(body), ['Eau Vive']);
  assert.deepEqual(body.meta.query, {
    q: 'Je cherche un outil gratuit pour la SVT au lycée',
    searched: ['svt'],
    ignored: ['je', 'cherche', 'un', 'outil'],
    level: [{ slug: 'lycee', label: 'Lycée général et technologique' }],
    subject: [{ slug: 'svt', label: 'Sciences de la vie et de la Terre' }],
    free: true,
    facts: [],
    age: null,
    for_pupils: null,
    similar_to: [],
    // « gratuit » is a filter (free or freemium): the same search without it, for a client to offer.
    without_constraints: { q: 'Je cherche un outil pour la SVT au lycée', total: 1, href: `http://localhost:80${API}/tools?q=Je%20cherche%20un%20outil%20pour%20la%20SVT%20au%20lyc%C3%A9e&page=1&per_page=30` },
  });
  // A subject's name finds the tools that have it even if their text does not say it.
  assert.deepEqual(await search(app, 'sciences de la vie et de la terre'), ['Eau Vive']);
  // A level alone: the tools of that level; a level never empties a search by itself.
  assert.deepEqual(new Set(await search(app, 'CM2')), new Set(['Eau Vive', 'Quizzy']));
  assert.deepEqual(await search(app, 'simulation terminale'), ['Eau Vive']);
  // Who the tools are for says a level (`kids`, `ados`, `adultes`: content/levels.yaml).
  const kids = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('simulations for kids')}` })).json();
  assert.deepEqual(names(kids), ['Eau Vive']);
  assert.deepEqual(kids.meta.query.level.map((l: { slug: string }) => l.slug), ['maternelle', 'elementaire']);
  assert.deepEqual(kids.meta.query.searched, ['simulations']);
  // Conversation alone finds nothing; without q there is no meta.query.
  assert.deepEqual(await search(app, 'je cherche un outil'), []);
  assert.equal((await app.inject({ url: `${API}/tools` })).json().meta.query, undefined);
});

test('GET /tools?q › a tool named next to an alternative word finds the tools like it, without it', async (t) => {
  const { app } = await buildTestApp(t);
  const read = async (q: string) => (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}` })).json();
  const body = await read('alternative gratuite à Quizzy');
  assert.deepEqual(body.meta.query.similar_to, [{ slug: 'quizzy', name: 'Quizzy' }]);
  assert.deepEqual(body.meta.query.searched, []);
  assert.ok(body.meta.query.ignored.includes('alternative'));
  assert.equal(body.meta.query.free, true);
  const alternatives = names(body);
  assert.ok(!alternatives.includes('Quizzy'), `the named tool is not its own alternative: ${alternatives}`);
  // The closest first: the other quiz makers (same category, same keywords) before the rest.
  assert.deepEqual(new Set(alternatives.slice(0, 2)), new Set(['Quiz Master', 'Atelier']), `${alternatives}`);
  // Before or after the name, French or English, any case.
  for (const q of ['Quizzy alternative', 'comme QUIZZY', 'like quizzy', 'alternative à quizzy']) {
    assert.deepEqual(await search(app, q), await search(app, 'alternative à Quizzy'), q);
  }
  // The other words still select: tools like it that do what they say.
  assert.equal((await search(app, 'comme Quizzy pour le calcul mental'))[0], 'Zèbre Math');
  // An alternative word with no tool named next to it is a word like any other.
  const plain = await read('pédagogie alternative');
  assert.deepEqual(plain.meta.query.similar_to, []);
  assert.deepEqual(plain.meta.query.searched, ['pedagogie', 'alternative']);
  // A tool's name alone is that tool first, as before.
  assert.equal((await search(app, 'quizzy'))[0], 'Quizzy');
});

test('GET /tools?q › English finds the French words through content/search-vocabulary.yaml, one way', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await search(app, 'water'), ['Eau Vive']);
  assert.deepEqual(await search(app, 'spelling app'), ['Écrire Mieux'], '`app` is conversation');
  assert.deepEqual(await search(app, 'eau'), ['Eau Vive']);
});

test('GET /tools?q › a conversation or price word inside an expression the vocabulary knows is a word of that expression', async (t) => {
  const dataset = fixtureDataset();
  dataset.searchVocabulary = {
    ...dataset.searchVocabulary,
    translations: [...dataset.searchVocabulary.translations, { term: 'mobile app', finds: ['application mobile'] }, { term: 'free software', finds: ['logiciel libre'] }],
  };
  dataset.tools.push(
    variant(dataset, 'zzz-mobile', 'Zzz Poche', 'Une application mobile pour réviser l’orthographe dans le bus.'),
    variant(dataset, 'zzz-libre', 'Zzz Libre', 'Un logiciel libre de calcul mental, à installer sur les postes de la salle.'),
  );
  const { app } = await buildTestApp(t, { dataset });
  const read = async (q: string) => (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}` })).json();
  const mobile = await read('mobile app for spelling');
  assert.deepEqual(mobile.meta.query.searched, ['mobile', 'app', 'spelling']);
  assert.equal(names(mobile)[0], 'Zzz Poche');
  // Alone, or next to words it makes no expression with, `app` is still conversation.
  assert.deepEqual((await read('spelling app')).meta.query.ignored, ['app']);
  // `free software` is software of a kind (logiciel libre), not a request for no price.
  const libre = await read('free software');
  assert.equal(libre.meta.query.free, false);
  assert.deepEqual(libre.meta.query.searched, ['free', 'software']);
  assert.deepEqual(names(libre), ['Zzz Libre']);
  assert.equal((await read('free spelling')).meta.query.free, true, '`free` beside another word is still the price hint');
});

test('GET /tools?q › relaxed, a query keeps the tools holding most of it beside those holding its rarest word', async (t) => {
  // `traduire`, `documents` and `parents` are each in more than one tool in ten here; `parler` in
  // one. No tool holds the four: the translators hold three, the speaking tool two.
  const dataset = fixtureDataset();
  for (let k = 0; k < 10; k++) dataset.tools.push(variant(dataset, `trad-${k}`, `Trad ${k}`, `Traduire les documents et les messages envoyés aux parents, version ${k}.`));
  dataset.tools.push(variant(dataset, 'aaa-oral', 'Aaa Oral', 'Parler en public : présenter des documents devant la classe.'));
  const { app } = await buildTestApp(t, { dataset });
  const found = await search(app, 'traduire documents parents parler', '&per_page=50');
  assert.ok(found.includes('Aaa Oral'), `the tool holding the rarest word: ${found}`);
  assert.equal(found.filter((name) => name.startsWith('Trad ')).length, 10, `the tools holding three of the four words: ${found}`);
});

test('GET /tools?q › an expression few tools hold whole is followed by the tools its words find, as those words typed apart would be', async (t) => {
  const dataset = fixtureDataset();
  dataset.tools.push(variant(dataset, 'aaa-calcul', 'Aaa Calcul', 'Calcul littéral et équations en classe, pour le lycée, avec des exercices corrigés.'));
  const { app } = await buildTestApp(t, { dataset });
  // `calcul mental` is one expression (the synonyms know it): Zèbre Math holds it whole.
  assert.deepEqual(await search(app, 'calcul mental'), ['Zèbre Math', 'Aaa Calcul']);
  // Its equivalent finds the same whole; what follows is what its own words find (`mental`, `math`: no more).
  assert.deepEqual(await search(app, 'mental math'), ['Zèbre Math']);
  // Beside other words too: those holding the expression and them, then those holding most of the words.
  assert.deepEqual(await search(app, 'calcul mental en classe'), ['Zèbre Math', 'Aaa Calcul']);
  // Its words must still be found: one found nowhere, and nothing follows.
  assert.deepEqual(await search(app, 'calcul mentaux zzz'), []);
});

test('GET /tools?q › an expression only long descriptions hold whole is followed by what its words find', async (t) => {
  const dataset = fixtureDataset();
  dataset.tools = dataset.tools.filter((tool) => tool.slug !== 'zebre-math');
  for (let k = 0; k < 9; k++) {
    dataset.tools.push({ ...variant(dataset, `jeux-${k}`, `Jeux ${k}`, `Des jeux de plateau numériques pour la classe, série ${k}.`), long_description: long('Certains jeux font travailler le calcul mental, d’autres la logique et la mémoire, par petites parties de dix minutes.') });
  }
  dataset.tools.push(
    variant(dataset, 'aaa-calcul', 'Aaa Calcul', 'Calcul littéral et équations en classe, pour le lycée, avec des exercices corrigés.'),
    variant(dataset, 'zzz-mental', 'Zzz Mental', 'Un entraînement mental à la concentration, quelques minutes par jour.'),
  );
  const { app } = await buildTestApp(t, { dataset });
  const found = await search(app, 'calcul mental', '&per_page=50');
  for (let k = 0; k < 9; k++) assert.ok(found.includes(`Jeux ${k}`), `the tools holding it in their long description: ${found}`);
  assert.ok(found.includes('Aaa Calcul') && found.includes('Zzz Mental'), `the tools its words find: ${found}`);
});

test('GET /tools?q › the long description is searched at a low weight: a match in the name or short description ranks first', async (t) => {
  const app = await appWith(t, (dataset) => [
    { ...variant(dataset, 'aaa-herbier', 'Aaa', 'Outil de classe pour observer et classer des plantes avec les élèves du collège.'), long_description: long('Un herbier numérique partagé, avec des photos de feuilles et de fleurs prises par les élèves pendant les sorties.') },
    variant(dataset, 'zzz-herbier', 'Zzz Herbier', 'Un herbier numérique pour classer les feuilles et les fleurs ramassées par la classe.'),
  ]);
  assert.deepEqual(await search(app, 'herbier'), ['Zzz Herbier', 'Aaa']);
  // A query found only in long descriptions is no sign it is about what the directory holds.
  assert.deepEqual(await search(app, 'sorties pizza'), []);
  assert.deepEqual(await search(app, 'sorties'), []);
  // Beside a level or a subject, the query is about school: such a word is one like another.
  assert.deepEqual(await search(app, 'sorties collège'), ['Aaa']);
  assert.deepEqual(await search(app, 'sorties svt'), ['Eau Vive', 'Aaa'], 'the subject\'s tool first: a match only in a long description ranks after');
});

test('GET /tools?q › among the tools of a subject, those naming it in their description, then in their long description, then the others', async (t) => {
  const of = (tool: ToolRecord): ToolRecord => ({ ...tool, school: { ...tool.school, subjects: ['histoire-geographie'] } });
  const app = await appWith(t, (dataset) => [
    of(variant(dataset, 'aaa-globe', 'Aaa Globe', 'Un globe virtuel pour explorer les reliefs et les paysages du monde.')),
    of({ ...variant(dataset, 'mmm-cartes', 'Mmm Cartes', 'Des cartes à compléter et à colorier, à imprimer ou en ligne.'), long_description: long('Des fonds de carte pour la géographie au collège, avec les fleuves, les reliefs et les grandes villes de France.') }),
    of(variant(dataset, 'zzz-croquis', 'Zzz Croquis', 'Des croquis de géographie à compléter pas à pas, avec leur légende.')),
  ]);
  assert.deepEqual(await search(app, 'géographie'), ['Zzz Croquis', 'Mmm Cartes', 'Aaa Globe']);
});

test('GET /tools?q › a subject’s topic that no tool names finds the subject’s tools: those saying it first, then those made for the subject', async (t) => {
  const of = (tool: ToolRecord, subjects: string[]): ToolRecord => ({ ...tool, school: { ...tool.school, subjects } });
  const app = await appWith(t, (dataset) => [
    of(variant(dataset, 'aaa-cours', 'Aaa Cours', 'Une banque d’exercices pour réviser toutes les matières du collège.'), ['francais', 'mathematiques', 'langues-vivantes', 'histoire-geographie', 'svt']),
    of(variant(dataset, 'bbb-tuteurs', 'Bbb Tuteurs', 'Une méthode de langues par la conversation avec des tuteurs en ligne.'), ['langues-vivantes']),
    of({ ...variant(dataset, 'zzz-parcours', 'Zzz Parcours', 'Des cours de langues vivantes en ligne, par petites leçons quotidiennes.'), long_description: long('Des parcours en allemand et en espagnol, du niveau débutant au niveau avancé, avec des dialogues enregistrés par des locuteurs natifs et des exercices de prononciation.') }, ['langues-vivantes']),
  ]);
  // `espagnol` is a topic of langues-vivantes (content/subjects.yaml) that only a long description says.
  assert.deepEqual(await search(app, 'espagnol'), ['Zzz Parcours', 'Bbb Tuteurs', 'Aaa Cours']);
  assert.deepEqual(await search(app, 'espagnol collège'), ['Zzz Parcours', 'Bbb Tuteurs', 'Aaa Cours']);
  // Its English name too (no translation in this fixture): the subject's tools, made for it first.
  assert.deepEqual(await search(app, 'spanish'), ['Bbb Tuteurs', 'Zzz Parcours', 'Aaa Cours']);
  // A word of no subject that only long descriptions say is still no sign of a need the directory meets.
  assert.deepEqual(await search(app, 'débutant'), []);
});

test('GET /tools?q › a subject typed as an acronym that is also a stop word (`SES`) is the subject, not the word', async (t) => {
  const of = (tool: ToolRecord, subjects: string[]): ToolRecord => ({ ...tool, school: { ...tool.school, levels: ['lycee'], subjects } });
  const app = await appWith(t, (dataset) => [
    of(variant(dataset, 'stat-eco', 'Stat Éco', 'Des séries statistiques sur la population, l’emploi et les revenus, en tableaux et en cartes.'), ['ses']),
    of(variant(dataset, 'carnet-lycee', 'Carnet Lycée', 'Un carnet où chaque professeur note ses séances et ses progressions.'), ['transversal']),
  ]);
  const body = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('SES seconde')}` })).json();
  assert.deepEqual(names(body), ['Stat Éco']);
  assert.deepEqual(body.meta.query.subject.map((s: { slug: string }) => s.slug), ['ses']);
  assert.deepEqual(await search(app, 'SES'), ['Stat Éco']);
  // Typed in lower case, it stays the stop word it is in « ses élèves ».
  assert.deepEqual((await app.inject({ url: `${API}/tools?q=${encodeURIComponent('ses seconde')}` })).json().meta.query.subject, []);
});

test('GET /tools?q › the topic of a lesson after `sur`/`about` that no tool names does not empty a search for a kind of tool', async (t) => {
  const app = await appWith(t, (dataset) => [
    { ...variant(dataset, 'frise-libre', 'Frise Libre', 'Des frises chronologiques interactives que la classe construit ensemble, avec images et dates.'), tags: ['frise-chronologique', 'histoire'] },
    variant(dataset, 'avis-eleves', 'Paroles', 'Recueillir l’avis des élèves sur une séance, de façon anonyme, en fin d’heure.'),
  ]);
  // `frise` is a word of the tools' keywords; `Napoléon`, after `sur`, is what the lesson is about.
  assert.deepEqual(await search(app, 'une frise sur Napoléon'), ['Frise Libre']);
  assert.deepEqual(await search(app, 'a timeline about Napoleon'.replace('timeline', 'frise')), ['Frise Libre']);
  const body = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('une frise sur Napoléon pour mes élèves')}` })).json();
  assert.deepEqual(body.meta.query.searched, ['frise', 'napoleon', 'eleves']);
  assert.deepEqual(body.meta.query.ignored, ['sur']);
  // Without the word that says so, an unknown word is a sign of a need the directory does not meet.
  assert.deepEqual(await search(app, 'frise Napoléon'), []);
  // Nor does a word that names no kind of tool (`avis` is in a description, no keyword) make a topic.
  assert.deepEqual(await search(app, 'un avis sur Napoléon'), []);
});

test('GET /tools?q › in French, a word found only through a correction is a word the directory does not hold', async (t) => {
  const { app } = await buildTestApp(t);
  // `réparer` is one letter from « préparer » (Atelier): in a French sentence of three words, it
  // is the verb of another need, not a typing error.
  assert.deepEqual((await search(app, 'réparer un quiz')).slice(0, 1), ['Atelier']);
  assert.deepEqual(await search(app, 'réparer le quiz cassé'), []);
  // A typing error among words that are all found is still corrected.
  assert.deepEqual(await search(app, 'préparr une évaluation formative'), ['Atelier']);
});

test('GET /tools?q › naming no level or subject, a tool must hold half the words when none holds them all', async (t) => {
  const { app } = await buildTestApp(t);
  // Six words, found two by two in three tools: a request whose words meet by chance.
  assert.deepEqual(await search(app, "les minutes à projeter, le cahier et la messagerie, l'orthographe et la grammaire"), []);
  assert.deepEqual(await search(app, 'minutes projeter cahier messagerie orthographe grammaire'), []);
  // Beside a level, the same words are about school: the tools holding the most.
  const closest = ['Écrire Mieux', 'École Test', 'Quiz Master'];
  assert.deepEqual(new Set(await search(app, "les minutes à projeter, le cahier et la messagerie, l'orthographe et la grammaire en CM2")), new Set(closest));
  // Four of them, two tools holding two: half, the tools holding the most.
  assert.deepEqual(new Set(await search(app, 'minutes projeter cahier messagerie')), new Set(['École Test', 'Quiz Master']));
});

test('GET /tools?q › in a query read as English, a word French writes with another meaning has its English sense', async (t) => {
  const app = await appWith(t, (dataset) => [
    variant(dataset, 'amphi-live', 'Amphi Live', 'Enregistrer un cours magistral en amphithéâtre et le diffuser aux étudiants.'),
    variant(dataset, 'lire-tout', 'Lire Tout', 'La lecture à voix haute des textes, pour les élèves dys.'),
  ]);
  // `lecture` (english_senses: « cours magistral ») among English stop words…
  const english = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('the lecture of my course')}` })).json();
  assert.deepEqual(names(english), ['Amphi Live']);
  assert.deepEqual(english.meta.query.searched, ['cours', 'magistral', 'course']);
  // …and the French word among French ones, or alone.
  assert.deepEqual(await search(app, 'la lecture pour mes élèves'), ['Lire Tout']);
  assert.deepEqual(await search(app, 'lecture'), ['Lire Tout']);
  // With no stop word (an agent's keywords), two words only the English side of the translations writes tell English.
  const searched = async (q: string) => (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}` })).json().meta.query.searched;
  assert.deepEqual(await searched('lecture spelling water'), ['cours', 'magistral', 'spelling', 'water']);
  assert.deepEqual(await searched('lecture spelling'), ['lecture', 'spelling']);
});

test('GET /tools?q › among tools matching as well, those with the level the query names come first, whatever their score', async (t) => {
  const app = await appWith(t, (dataset) => [
    withSchool(variant(dataset, 'carnet-a', 'Carnet', 'Un carnet de quiz à remplir pendant la séance.'), { levels: ['college'] }),
    withSchool(variant(dataset, 'zeta-b', 'Zeta', 'Un carnet de quiz à remplir pendant la séance.'), { levels: ['lycee'] }),
  ]);
  // Without a level, the query holding a whole name ranks that tool first.
  assert.deepEqual((await search(app, 'carnet quiz')).slice(0, 2), ['Carnet', 'Zeta']);
  // Naming a level: the tool that has it first, the other still found.
  assert.deepEqual((await search(app, 'carnet quiz lycée')).slice(0, 2), ['Zeta', 'Carnet']);
});

test('GET /tools?q › a word the stemmer joins only to unrelated words of the descriptions is looked for as typed, in long descriptions', async (t) => {
  const app = await appWith(t, (dataset) => [
    variant(dataset, 'ecran-num', 'Écran Num', 'Un cahier numérique pour toute la classe, partagé en ligne.'),
    { ...variant(dataset, 'compte-juste', 'Compte Juste', 'Des exercices de calcul progressifs pour le cycle 2.'), long_description: long('Les séries travaillent la numération : dizaines, centaines, décomposition des nombres et comparaison, avec une correction immédiate pour chaque élève.'), school: { ...dataset.tools[0]!.school, subjects: ['mathematiques'] } },
  ]);
  // Snowball stems « numération » and « numérique » alike: the description saying « numérique » is no match.
  assert.deepEqual(await search(app, 'numération'), ['Compte Juste']);
  // A word the descriptions write in another form of its own (`numériques`) is found there as ever, first.
  assert.deepEqual((await search(app, 'numériques')).slice(0, 2), ['Écran Num', 'Élève Plus']);
});

test('GET /tools?q › the last word is completed in a query of one or two words to find, not at the end of a sentence', async (t) => {
  const app = await appWith(t, (dataset) => [
    { ...variant(dataset, 'malin-voyant', 'Malin Voyant', 'Des histoires avec des syllabes en gros caractères, pour les élèves malvoyants.'), category: 'ecriture', tags: ['lecture'] },
    { ...variant(dataset, 'lire-facile', 'Lire Facile', 'Des histoires avec des syllabes colorées.'), category: 'ecriture', tags: ['lecture'] },
  ]);
  // Two words to find: `mal` is being typed, « malvoyants » comes first.
  assert.deepEqual(await search(app, 'syllabes mal'), ['Malin Voyant', 'Lire Facile']);
  // More (`classe` says the query is about teaching): `mal` is a word typed whole, found nowhere; the shorter description comes first.
  assert.deepEqual(await search(app, 'histoires syllabes mal en classe'), ['Lire Facile', 'Malin Voyant']);
});

test('GET /tools?q › an age reads as the levels whose ages hold it (« de 8 ans », `8-year-olds`, « de 3 à 6 ans »), and as the pupils’ age: a filter', async (t) => {
  const { app } = await buildTestApp(t);
  const levels = async (q: string) => {
    const body = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}` })).json();
    return { levels: body.meta.query.level.map((l: { slug: string }) => l.slug), searched: body.meta.query.searched, names: names(body), age: body.meta.query.age };
  };
  // Eau Vive's terms allow it from 10 (the fixture): at 8 the age keeps nothing; at 11, it.
  assert.deepEqual(await levels('simulations pour des enfants de 8 ans'), { levels: ['maternelle', 'elementaire'], searched: ['simulations'], names: [], age: 8 });
  assert.deepEqual(await levels('simulations de 11 ans'), { levels: ['college'], searched: ['simulations'], names: ['Eau Vive'], age: 11 });
  assert.deepEqual((await levels('simulations for 13-year-olds')).levels, ['college']);
  assert.deepEqual((await levels('simulations, 16 years old')).levels, ['lycee', 'lycee-pro']);
  assert.deepEqual((await levels('simulations de 3 à 6 ans')).levels, ['maternelle', 'elementaire']);
  // A number that is no age stays a word (`depuis 10 ans`: for ten years).
  assert.deepEqual((await levels('simulations depuis 10 ans')).levels, []);
});

test('GET /tools?q › an English word the directory does not hold finds what its other inflections translate to', async (t) => {
  const { app } = await buildTestApp(t);
  // The translations name `spelling` (« orthographe ») and `water` (« eau »), not their other forms.
  assert.deepEqual(await search(app, 'spelling'), ['Écrire Mieux']);
  assert.deepEqual(await search(app, 'spellings'), ['Écrire Mieux']);
  assert.deepEqual(await search(app, 'waters'), ['Eau Vive']);
  assert.deepEqual(await search(app, 'watering'), ['Eau Vive']);
  // A form no rule joins to a translated word is no match.
  assert.deepEqual(await search(app, 'spellbound'), []);
});

test('GET /tools?q › a word found nowhere beside words that are mostly no keyword of the tools: nothing, unless the query names a class or a subject', async (t) => {
  const { app } = await buildTestApp(t);
  // `cahier` and `messagerie` meet in one tool; `bancaire` nowhere; neither names a tag or a category.
  assert.deepEqual(await search(app, 'cahier messagerie bancaire'), []);
  assert.deepEqual(await search(app, 'cahier messagerie'), ['École Test'], 'every word found: the tool holding them');
  // A word of the class (`classroom`: « élèves », « classe ») says the unknown word is the lesson's.
  // (Four words telling a need, fewer than a page found: the tool closest to it follows, Eau Vive, of its category.)
  assert.deepEqual(await search(app, 'cahier messagerie bancaire de la classe'), ['École Test', 'Eau Vive']);
  // So does a subject.
  assert.equal((await search(app, 'cahier messagerie bancaire en SVT'))[0], 'École Test');
  // A level or an age alone says whose need it is, not that it is one of school's: a
  // consumer's request about a child (« … pour mon fils de 8 ans », « … en CM1 ») is still something else.
  assert.deepEqual(await search(app, 'cahier messagerie bancaire pour mon fils de 8 ans'), []);
  assert.deepEqual(await search(app, 'cahier messagerie bancaire CM1'), []);
  // Half of the words found name a keyword (`quiz`, a category's name): the query is about the tools.
  assert.deepEqual((await search(app, 'quiz projeter pâques')).slice(0, 1), ['Quiz Master']);
  // Not a keyword that most tools have (`test`, every fixture tool's tag; « compte » of « compte
  // rendu », « ligne » of « en ligne » in the directory): it tells no kind of tool.
  assert.deepEqual(await search(app, 'test messagerie bancaire'), []);
  assert.deepEqual(await search(app, 'test messagerie'), ['École Test'], 'every word found: the tool holding them');
});

test('GET /tools?q › words found only in long texts are read with the rarest keyword of the query when its tools say them', async (t) => {
  const app = await appWith(t, (dataset) => [
    { ...variant(dataset, 'bulle-bd', 'Alpha', 'Créer des planches de bande dessinée en ligne.'), tags: ['bande-dessinee'], long_description: long('Les élèves choisissent des personnages, les placent dans chaque case de la planche et écrivent leurs bulles de dialogue.') },
    { ...variant(dataset, 'bulle-savon', 'Beta', 'Expériences de chimie à mener avec la classe.'), category: 'sciences', long_description: long('On souffle des bulles de savon, on observe leurs couleurs et on mesure combien de temps elles tiennent avant d’éclater.') },
  ]);
  // `bulles` and `personnages` are only in long descriptions; a tool tagged `bande-dessinee` says both.
  assert.deepEqual((await search(app, 'bande dessinée bulles personnages')).slice(0, 1), ['Alpha']);
  // Without the keyword, two words that only long texts say are no sign of a need the directory answers.
  assert.deepEqual(await search(app, 'bulles personnages souffle'), []);
  // Nor when one of the keyword's tools in five says them: a chance meeting (`assurance auto`).
  const many = await appWith(t, (dataset) => [
    { ...variant(dataset, 'bulle-bd', 'Alpha', 'Créer des planches de bande dessinée en ligne.'), tags: ['bande-dessinee'], long_description: long('Les élèves choisissent des personnages, les placent dans chaque case de la planche et écrivent leurs bulles de dialogue.') },
    ...['Gamma', 'Delta', 'Epsilon', 'Zeta'].map((name) => ({ ...variant(dataset, `bd-${name.toLowerCase()}`, name, 'Lire des albums de bande dessinée en ligne.'), tags: ['bande-dessinee'] })),
  ]);
  assert.deepEqual(await search(many, 'bande dessinée bulles personnages'), []);
});

test('GET /tools?q › a tool named inside an expression the vocabulary translates is not what the expression asks for', async (t) => {
  const dataset = fixtureDataset();
  const base = dataset.tools.find((tool) => tool.slug === 'quizzy')!;
  dataset.tools.push(
    { ...base, slug: 'chatmalin', name: 'Chatmalin', short_description: 'Assistant conversationnel qui écrit des textes et des devoirs à la demande.', website_url: 'https://chatmalin.example.org/', education_program: null, former_slugs: [] },
    { ...base, slug: 'detecteur-plus', name: 'Détecteur Plus', short_description: "Détecteur d'IA qui repère les copies et les devoirs rédigés par un assistant.", website_url: 'https://detecteur-plus.example.org/', education_program: null, former_slugs: [] },
  );
  dataset.synonyms.expansions.push({ term: 'écrit par Chatmalin', finds: ["détecteur d'IA"] });
  const { app } = await buildTestApp(t, { dataset });
  // « écrit par Chatmalin » asks for a detector: the tool it names comes after it.
  assert.deepEqual((await search(app, 'devoir écrit par Chatmalin')).slice(0, 2), ['Détecteur Plus', 'Chatmalin']);
  // Named on its own, the tool comes first.
  assert.equal((await search(app, 'Chatmalin devoir'))[0], 'Chatmalin');
});

test('GET /tools?q › when no tool holds every word, the kind of tool asked for (a keyword) weighs more than a word of the story', async (t) => {
  const tagged = (tool: ToolRecord, tags: string[]): ToolRecord => ({ ...tool, tags });
  const app = await appWith(t, (dataset) => [
    tagged(variant(dataset, 'frise-alpha', 'Alpha', 'Une frise chronologique à compléter sur les volcans.'), ['frise']),
    tagged(variant(dataset, 'frise-gamma', 'Gamma', 'Une frise chronologique pour la classe entière.'), ['frise']),
    variant(dataset, 'beta-terre', 'Beta', 'Les volcans et leur éruption racontés aux enfants.'),
  ]);
  // `éruption` (one tool) is rarer than `frise` (two), but the frise is what is asked for.
  assert.deepEqual((await search(app, 'frise volcans éruption')).slice(0, 2), ['Alpha', 'Beta']);
});

test('GET /tools?q › when no tool holds both, the subject a query names weighs more than a rarer word beside it', async (t) => {
  const app = await appWith(t, (dataset) => [
    withSchool(variant(dataset, 'cellule-3d', 'Cellule 3D', 'La cellule animale et végétale en trois dimensions.'), { subjects: ['svt'] }),
    withSchool(variant(dataset, 'genes-en-jeu', 'Gènes en jeu', 'Croiser des lignées et observer leurs caractères.'), { subjects: ['svt'] }),
    withSchool(variant(dataset, 'roches-du-monde', 'Roches du monde', 'Une collection de roches et de minéraux photographiés.'), { subjects: ['svt'] }),
    withSchool(variant(dataset, 'glossaire-libre', 'Glossaire libre', 'Un glossaire de termes à compléter en classe.'), { subjects: ['philosophie'] }),
  ]);
  // `glossaire` (one tool) is rarer than the tools of SVT (these three and the fixture's), but SVT is what the query is about.
  const found = await search(app, 'SVT glossaire');
  for (const name of ['Cellule 3D', 'Gènes en jeu', 'Roches du monde']) assert.ok(found.includes(name), name);
  assert.equal(found.at(-1), 'Glossaire libre', 'the tool with the other word follows the tools of the subject');
});

test('GET /tools?q › beside a subject the query names, one word found nowhere is the lesson\'s topic, not a request for something else', async (t) => {
  const app = await appWith(t, (dataset) => [
    withSchool(variant(dataset, 'cellule-3d', 'Cellule 3D', 'La cellule animale et végétale en trois dimensions.'), { subjects: ['svt'] }),
  ]);
  // `xylophages` is in no tool: the tools of SVT all the same.
  assert.ok((await search(app, 'SVT xylophages')).includes('Cellule 3D'));
  // Two such words, or one beside words that name no subject: nothing, as before.
  assert.deepEqual(await search(app, 'SVT xylophages ornithorynques'), []);
  assert.deepEqual(await search(app, 'cellule xylophages'), []);
});

test('GET /tools?q › naming a level, a tool with that level comes before a better match without it', async (t) => {
  const app = await appWith(t, (dataset) => [
    withSchool({ ...variant(dataset, 'aaa-lycee', 'Aaa', 'Un outil pour la classe entière, au tableau.'), long_description: long('Les élèves complètent ensemble un glossaire de termes de la discipline, chacun sur sa tablette, et le professeur le projette au tableau à la fin de la séance.') }, { levels: ['lycee'] }),
    withSchool(variant(dataset, 'bbb-college', 'Bbb', 'Un glossaire de termes à compléter en classe.'), { levels: ['college'] }),
  ]);
  // Without a level, the tool saying it in its description comes first…
  assert.deepEqual((await search(app, 'glossaire')).slice(0, 2), ['Bbb', 'Aaa']);
  // …naming one, the tool that has it, though only its long description says the word.
  assert.deepEqual((await search(app, 'glossaire lycée')).slice(0, 2), ['Aaa', 'Bbb']);
});

test('GET /tools?q › of many words, when fewer than a page hold the most, the tools holding half of them follow', async (t) => {
  const app = await appWith(t, (dataset) => [
    { ...variant(dataset, 'terre-active', 'Terre Active', 'Des cartes du volcan, du séisme, du magma, de la lave et du cratère, pour la classe.'), category: 'sciences', tags: ['geologie'] },
    { ...variant(dataset, 'sous-nos-pieds', 'Sous nos pieds', 'Un atelier sur le volcan, le séisme et le magma, avec des fiches à imprimer.'), category: 'sciences', tags: ['geologie'] },
    { ...variant(dataset, 'eau-chaude', 'Eau Chaude', 'Le geyser en photos et en vidéos, pour observer avec les élèves du collège.'), category: 'ecriture', tags: ['photo'] },
    { ...variant(dataset, 'deux-images', 'Deux Images', 'La lave et le geyser, en images à montrer au tableau.'), category: 'ecriture', tags: ['photo'] },
  ]);
  // Six words: one tool holds five, another three (half), another two, another one.
  assert.deepEqual(await search(app, 'volcan séisme magma lave cratère geyser'), ['Terre Active', 'Sous nos pieds']);
  // Naming pupils (or a class, a level, a subject), the query is about school: down to the tools holding two
  // (then, fewer than a page, the tool closest to those: Eau Chaude, of Deux Images' category and tags).
  assert.deepEqual(await search(app, 'volcan séisme magma lave cratère geyser pour mes élèves'), ['Terre Active', 'Sous nos pieds', 'Deux Images', 'Eau Chaude']);
});

test('GET /tools?q › a need told in a sentence that fewer than a page of tools answer: the tools closest to them follow', async (t) => {
  const app = await appWith(t, (dataset) => [
    { ...variant(dataset, 'studio-radio', 'Studio Radio', 'Enregistrer une émission de radio avec la classe, puis la monter et la diffuser.'), category: 'ecriture', tags: ['audio', 'montage', 'podcast'] },
    { ...variant(dataset, 'piste-libre', 'Piste Libre', 'Logiciel libre pour couper, mixer et exporter des sons, hors ligne.'), category: 'ecriture', tags: ['audio', 'montage', 'podcast'] },
    { ...variant(dataset, 'roche-vive', 'Roche Vive', 'Des cartes des volcans et des séismes du monde.'), category: 'sciences', tags: ['geologie'] },
  ]);
  // Five words of a need, one tool holding them: then the tool of its kind (its category and tags) that says
  // none of them; not those sharing only its category (Œuvre Studio), nor Roche Vive.
  assert.deepEqual(await search(app, 'une émission de radio pour enregistrer les voix des élèves et la diffuser'), ['Studio Radio', 'Piste Libre']);
  // Keywords, not a sentence (three words or fewer): what the words find, nothing more.
  assert.deepEqual(await search(app, 'émission radio'), ['Studio Radio']);
  assert.deepEqual(await search(app, 'enregistrer émission radio'), ['Studio Radio']);
});

test('GET /tools?q › a word naming two subjects (`FLE`: français, langues vivantes) counts a tool with both once', async (t) => {
  const app = await appWith(t, (dataset) => [
    withSchool(variant(dataset, 'point-fle', 'Le Point du FLE', 'Des exercices de français langue étrangère pour la classe.'), { subjects: ['francais'] }),
    withSchool(variant(dataset, 'tuteurs-en-ligne', 'Tuteurs en ligne', 'Des cours particuliers avec des professeurs du monde entier.'), { subjects: ['francais', 'langues-vivantes'] }),
  ]);
  // The tool named for it first; the tool that has both subjects does not outrank it for having two.
  assert.deepEqual((await search(app, 'FLE')).slice(0, 1), ['Le Point du FLE']);
});

test('GET /tools?q › a school fact the query asks for (« sans compte », `offline`) is a filter: only the tools known to have it; meta.query.facts says it as filters', async (t) => {
  const dataset = fixtureDataset();
  dataset.tools.push(
    withSchool(variant(dataset, 'quiz-compte', 'Quiz Compte', 'Quiz en ligne pour la classe, chaque élève avec son compte.'), { pupil_account: 'personal', offline: false }),
    withSchool(variant(dataset, 'quiz-poste', 'Quiz Poste', 'Quiz pour la classe, à installer sur les postes de la salle.'), { pupil_account: 'none', offline: true }),
    withSchool(variant(dataset, 'quiz-inconnu', 'Quiz Inconnu', 'Quiz pour la classe, à projeter au tableau.'), { pupil_account: null, offline: null }),
  );
  const { app } = await buildTestApp(t, { dataset });
  const read = async (q: string) => (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}` })).json();
  const noAccount = await read('quiz sans compte');
  // « compte » is not looked for (it would find the quiz that needs one): the quizzes known to
  // need no account, not those that need one or whose fact is unknown.
  assert.deepEqual(noAccount.meta.query.searched, ['quiz']);
  assert.deepEqual(noAccount.meta.query.facts, [{ label: 'sans compte élève', filter: { pupil_account: ['none', 'class_code'] } }]);
  const order = names(noAccount);
  assert.deepEqual(new Set(order), new Set(['Quiz Poste', 'Quizzy']));
  assert.equal(noAccount.meta.query.without_constraints.q, 'quiz');
  assert.equal(noAccount.meta.query.without_constraints.total, (await read('quiz')).meta.total);
  assert.ok(noAccount.meta.query.without_constraints.total > order.length);
  assert.deepEqual(names(await read('quiz no account')), order, 'in English as in French');
  assert.deepEqual((await read('quiz')).meta.query.facts, []);
  // A fact alone: the tools known to have it; two facts: those known to have both.
  assert.deepEqual(new Set(await search(app, 'hors ligne')), new Set(['Eau Vive', 'Quiz Poste']));
  assert.deepEqual(await search(app, 'offline open source'), ['Quiz Poste']);
  assert.deepEqual(new Set(await search(app, 'open source sans compte')), new Set(['Quiz Poste', 'Quizzy']));
});

test('GET /tools?q › a school fact whose words the synonyms know is looked for too, and kept as a filter', async (t) => {
  const dataset = fixtureDataset();
  dataset.synonyms = { ...dataset.synonyms, equivalents: [...dataset.synonyms.equivalents, ['hors ligne', 'offline']] };
  dataset.tools.push(
    withSchool(variant(dataset, 'carte-ailleurs', 'Carte Ailleurs', 'Cartes mentales hors ligne pour la classe.'), { offline: null }),
    withSchool(variant(dataset, 'carte-zinc', 'Carte Zinc', 'Cartes mentales hors ligne pour la classe.'), { offline: true }),
  );
  const { app } = await buildTestApp(t, { dataset });
  const body = (await app.inject({ url: `${API}/tools?q=${encodeURIComponent('cartes mentales offline')}` })).json();
  // Both say it; only the one known to work offline is kept (the fact is a filter).
  assert.deepEqual(names(body), ['Carte Zinc']);
  assert.deepEqual(body.meta.query.searched, ['cartes', 'mentales', 'offline']);
  assert.deepEqual(body.meta.query.facts, [{ label: 'hors ligne', filter: { offline: true } }]);
});

test('GET /tools?q › what a tool is in English (content/search-english.yaml) is searched as its long description is; a word only long texts hold, beside words that are no keyword, is no match', async (t) => {
  const dataset = fixtureDataset();
  dataset.tools.push({ ...variant(dataset, 'aqua-simul', 'Aqua Simul', "Simulations du cycle de l'eau pour l'école primaire et le collège, avec des fiches."), category: 'sciences' });
  const withEnglish = structuredClone(dataset);
  withEnglish.searchVocabulary.english = { 'eau-vive': 'Water cycle simulations showing rainfall and runoff, with activity sheets for primary and middle school science lessons.' };
  const { app } = await buildTestApp(t, { dataset: withEnglish });
  // No French text says `rainfall`, no translation names it: Eau Vive's English text does, and
  // it comes first of the two water cycle simulations, though its name comes after.
  const q = 'water cycle simulations with rainfall for pupils';
  assert.deepEqual((await search(app, q)).slice(0, 2), ['Eau Vive', 'Aqua Simul']);
  const { app: french } = await buildTestApp(t, { dataset });
  assert.deepEqual((await search(french, q)).slice(0, 2), ['Aqua Simul', 'Eau Vive'], 'without its English text');
  // `cahier` and `messagerie` meet in one tool, no tag or category names them, and `rainfall`
  // is only in a long text: no sign the query is about what that tool does.
  assert.deepEqual(await search(app, 'cahier messagerie rainfall'), []);
});
