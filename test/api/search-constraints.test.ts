/**
 * GET /tools?q=: what a need states as a constraint the directory holds as a fact (free of
 * charge, a school fact, the pupils' age or class) is a filter (issue « Search IV », point 1;
 * docs/search.md, "Constraints"): the results keep it, meta.query says so, and when it keeps
 * nothing the answer says so and offers the search without it. On the fixture, then on the
 * bundled content for the words of the real vocabulary.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { loadContent } from '../../src/content/load-content.js';
import { API, buildTestApp } from '../helpers/build-app.js';

type App = Awaited<ReturnType<typeof buildTestApp>>['app'];
interface Body {
  data: Array<{ slug: string; name: string; school: { for_pupils: Array<{ from: number; to: number | null; answer: string }> } }>;
  meta: { total: number; query: Record<string, any>; warnings?: Array<{ code: string; parameter: string; message: string }> };
}
const get = async (app: App, q: string, extra = ''): Promise<Body> => (await app.inject({ url: `${API}/tools?q=${encodeURIComponent(q)}${extra}` })).json();

test('constraints › a class said to be the pupils’ is their age, a filter; a class named alone is a level', async (t) => {
  const { app } = await buildTestApp(t);
  // Eau Vive's terms allow it from 10 (fixture); Quizzy from any age.
  const cm2 = await get(app, 'simulations pour mes élèves de CM2');
  assert.equal(cm2.meta.query.age, 10);
  assert.deepEqual(cm2.data.map((d) => d.name), ['Eau Vive']);
  assert.equal(cm2.meta.query.without_constraints.q, 'simulations pour mes élèves');
  // The small words that only lead to the age go with it: « quiz pour mes CM2 » without it is « quiz ».
  assert.equal((await get(app, 'quiz pour mes CM2')).meta.query.without_constraints.q, 'quiz');
  assert.equal((await get(app, 'quiz for my 3rd graders')).meta.query.age, 8);
  // Alone, a class is a level: tools of that level rank first, and nothing is filtered by age.
  const alone = await get(app, 'simulations CE2');
  assert.equal(alone.meta.query.age, null);
  assert.deepEqual(alone.data.map((d) => d.name), ['Eau Vive']);
  assert.equal(alone.meta.query.without_constraints, undefined);
});

test('constraints › a class a teacher speaks of keeps the tools the teacher leads with it; a child’s age alone, what the child may use', async (t) => {
  const { app } = await buildTestApp(t);
  // Atelier is teacher-only (fixture): its answer at every age is teacher_led.
  const inClass = await get(app, 'générateur de quiz pour mes élèves de CM2');
  assert.equal(inClass.meta.query.age, 10);
  assert.deepEqual(inClass.meta.query.for_pupils, ['yes', 'with_consent', 'teacher_led', 'unknown']);
  assert.ok(inClass.data.some((d) => d.slug === 'atelier-quiz'), 'a teacher-only tool serves a teacher’s class');
  // The filter meta.query names is GET /tools' own (the same tools; their order differs by the
  // words searched: « élèves » and the level are the sentence's).
  const listed = await get(app, 'générateur de quiz', '&age=10&for_pupils=with_consent,teacher_led,unknown');
  assert.deepEqual(listed.data.map((d) => d.slug).sort(), inClass.data.map((d) => d.slug).sort());
  // Among equals, a tool known to suit that age (Quizzy: any age) ranks before one whose answer
  // nobody has read (Quiz Master), which it follows without the age.
  const order = (body: Body) => body.data.map((d) => d.slug).filter((slug) => slug === 'quizzy' || slug === 'quiz-master');
  assert.deepEqual(order(await get(app, 'générateur de quiz')), ['quiz-master', 'quizzy']);
  assert.deepEqual(order(listed), ['quizzy', 'quiz-master']);
  assert.deepEqual(order(await get(app, 'générateur de quiz pour un enfant de 10 ans')), ['quizzy', 'quiz-master']);
  // An age in numbers is a class's beside a word of teaching, before or after it.
  for (const q of ['générateur de quiz pour mes élèves de 10 ans', 'générateur de quiz pour ma classe de 10 ans', 'quiz generator for 10 year old pupils']) {
    const reading = (await get(app, q)).meta.query;
    assert.equal(reading.age, 10, q);
    assert.deepEqual(reading.for_pupils, ['yes', 'with_consent', 'teacher_led', 'unknown'], q);
  }
  // And anywhere in a query that speaks of teaching: the age is then its pupils' (« J'enseigne
  // en ULIS à des enfants de 7 à 11 ans… les règles de la classe »), not a child's on its own.
  for (const q of ['un générateur de quiz pour des enfants de 10 ans, à utiliser en classe', 'quiz generator for 10 year old kids, a game all my pupils can play']) {
    const reading = (await get(app, q)).meta.query;
    assert.equal(reading.age, 10, q);
    assert.deepEqual(reading.for_pupils, ['yes', 'with_consent', 'teacher_led', 'unknown'], q);
  }
  // After a word of age the unit is not needed (`aged 10`), and that word goes with the age.
  const aged = await get(app, 'quiz generator for kids aged 10');
  assert.equal(aged.meta.query.age, 10);
  assert.equal(aged.meta.query.without_constraints.q, 'quiz generator for kids');
  assert.equal((await get(app, 'générateur de quiz pour des enfants âgés de 10 ans')).meta.query.without_constraints.q, 'générateur de quiz pour des enfants');
  // A range written with a hyphen is a range: its youngest age is the pupils', and no number is left to find.
  const range = await get(app, 'générateur de quiz pour mes élèves de 9-10 ans');
  assert.equal(range.meta.query.age, 9);
  assert.equal(range.meta.query.without_constraints.q, 'générateur de quiz pour mes élèves');
  // Said to use it themselves, a class asks for what its pupils use on their own.
  for (const q of ['générateur de quiz que mes élèves de CM2 utilisent seuls', 'générateur de quiz que mes élèves de CM2 utilisent eux-mêmes']) {
    const own = await get(app, q);
    assert.deepEqual(own.meta.query.for_pupils, ['yes', 'with_consent', 'unknown'], q);
    assert.ok(!own.data.some((d) => d.slug === 'atelier-quiz'), `${q}: no teacher-led tool`);
  }
  const child = await get(app, 'générateur de quiz pour un enfant de 10 ans');
  assert.equal(child.meta.query.age, 10);
  assert.deepEqual(child.meta.query.for_pupils, ['yes', 'with_consent', 'unknown']);
  assert.ok(!child.data.some((d) => d.slug === 'atelier-quiz'), 'a child on its own is not led by a teacher');
  // A need read in a sentence drops the tools known to break it, not those whose answer at that
  // age waits on a fact nobody has read (Quiz Master's minimum age is unknown): each result's
  // own answer at that age is one the reading keeps, and says which is which.
  const answerAt = (d: Body['data'][number], age: number) => d.school.for_pupils.find((b) => b.from <= age && (b.to === null || age <= b.to))!.answer;
  for (const [q, age] of [['générateur de quiz pour un enfant de 10 ans', 10], ['générateur de quiz pour mes élèves de CM2', 10], ['simulations pour un enfant de 8 ans', 8]] as const) {
    const found = await get(app, q);
    for (const d of found.data) assert.ok(found.meta.query.for_pupils.includes(answerAt(d, age)), `${q}: ${d.slug} answers ${answerAt(d, age)}`);
  }
  assert.ok(child.data.some((d) => d.slug === 'quiz-master' && answerAt(d, 10) === 'unknown'), 'a tool of unknown answer is kept');
  // Said by the API's own parameters, the age filter keeps known answers only, unless asked.
  assert.ok(!(await get(app, 'générateur de quiz', '&age=10')).data.some((d) => d.slug === 'quiz-master'), 'age alone keeps yes and with_consent');
  assert.ok((await get(app, 'générateur de quiz', '&age=10&for_pupils=unknown')).data.some((d) => d.slug === 'quiz-master'), 'for_pupils=unknown keeps it');
  // Without a stated age, no answer is kept or dropped.
  assert.equal((await get(app, 'générateur de quiz')).meta.query.for_pupils, null);
});

test('constraints › when they keep nothing, nothing is found, a warning says so and the search without them is offered', async (t) => {
  const { app } = await buildTestApp(t);
  const ce2 = await get(app, 'simulations pour mes élèves de CE2');
  assert.equal(ce2.meta.total, 0);
  assert.equal(ce2.meta.query.age, 8);
  const { q, total, href } = ce2.meta.query.without_constraints;
  assert.equal(q, 'simulations pour mes élèves');
  assert.equal(total, 1);
  const warning = ce2.meta.warnings?.find((w) => w.code === 'constraints_unmet');
  assert.ok(warning, 'a warning says the constraints keep nothing');
  assert.equal(warning.parameter, 'q');
  assert.match(warning.message, /« élèves de 8 ans »/);
  // The offered search answers what it says.
  const offered = (await app.inject({ url: new URL(href).pathname + new URL(href).search })).json();
  assert.equal(offered.meta.total, total);
  assert.deepEqual(offered.data.map((d: { name: string }) => d.name), ['Eau Vive']);
  // Words that only state constraints: the search without them is no search at all.
  const only = await get(app, 'gratuit sans compte');
  assert.equal(only.meta.query.without_constraints.q, '');
  assert.equal(only.meta.query.without_constraints.total, (await app.inject({ url: `${API}/tools` })).json().meta.total);
});

test('constraints › the same in MCP search_tools: the meta.query and the tools REST answers', async (t) => {
  const { app } = await buildTestApp(t);
  const rest = await get(app, 'quiz gratuit sans compte', '&per_page=25');
  const res = await app.inject({
    method: 'POST', url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: { q: 'quiz gratuit sans compte' } } },
  });
  const text = res.body.includes('data:') ? res.body.split('\n').find((l) => l.startsWith('data:'))!.slice(5) : res.body;
  const structured = JSON.parse(text).result.structuredContent;
  assert.deepEqual(structured.data.map((d: { slug: string }) => d.slug), rest.data.map((d) => d.slug));
  assert.deepEqual(structured.meta.query.facts, rest.meta.query.facts);
  assert.equal(structured.meta.query.free, true);
});

const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
if (!loaded.ok) throw new Error('the bundled content does not load');

test('constraints › on the bundled content, every tool found keeps every constraint meta.query states', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  const tools = new Map(loaded.dataset.tools.map((tool) => [tool.slug, tool]));
  const base = fc.constantFrom('quiz', 'maths', 'carte mentale', 'synthèse vocale', 'histoire', 'programmation', 'vidéo', 'anglais', 'IA');
  const constraint = fc.constantFrom(
    'hors connexion', 'sans compte élève', 'sans inscription', 'logiciel libre', 'open source', 'sans IA', 'gratuit', 'pour mes élèves de 5e',
    'pour mes CM2', 'for 10-year-olds', 'mes élèves de seconde', 'enfants de 8 ans', 'offline', 'no account', 'free',
  );
  await fc.assert(
    fc.asyncProperty(base, fc.array(constraint, { minLength: 1, maxLength: 2 }), async (b, cs) => {
      const q = [b, ...cs].join(' ');
      const body = await get(app, q, '&per_page=100');
      const reading = body.meta.query;
      for (const { slug } of body.data) {
        const tool = tools.get(slug)!;
        for (const { filter } of reading.facts as Array<{ filter: Record<string, unknown> }>) {
          for (const [name, wanted] of Object.entries(filter)) {
            const value = (tool.school as unknown as Record<string, unknown>)[name];
            assert.ok(Array.isArray(wanted) ? wanted.includes(value) : value === wanted, `${q}: ${slug} has ${name} ${String(value)}`);
          }
        }
        if (reading.free) assert.ok(['free', 'freemium'].includes(tool.pricing.model), `${q}: ${slug} is ${tool.pricing.model}`);
      }
      if (reading.age !== null) {
        const byAge = await get(app, q, `&per_page=100&age=${reading.age}&for_pupils=${reading.for_pupils.join(',')}`);
        assert.deepEqual(byAge.data.map((d) => d.slug), body.data.map((d) => d.slug), `${q}: the age read is GET /tools' age, with the for_pupils answers meta.query names`);
        for (const d of body.data) {
          const band = d.school.for_pupils.find((b) => b.from <= reading.age && (b.to === null || reading.age <= b.to))!;
          assert.ok(reading.for_pupils.includes(band.answer), `${q}: ${d.slug} is ${band.answer} at ${reading.age}`);
        }
      } else assert.equal(reading.for_pupils, null, q);
      const stated = reading.facts.length > 0 || reading.free || reading.age !== null;
      assert.equal(reading.without_constraints !== undefined, stated, q);
    }),
    { numRuns: 60 },
  );
});

test('constraints › words that only sound like one are not read as one; the classes of other school systems give their age', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  for (const q of ['activités pour le temps libre', 'rédiger un compte rendu', 'le libre arbitre en philosophie', 'compte à rebours', 'calcul de moyenne']) {
    const { meta } = await get(app, q);
    assert.deepEqual([meta.query.facts, meta.query.free, meta.query.age], [[], false, null], q);
  }
  const ages: Array<[string, number]> = [
    ['quiz pour mes élèves de 5e', 12], ['exercices pour mes élèves de 5e primaire', 10], ['lecture pour mes élèves de 2e année', 7],
    ['physique pour mes élèves de secondaire 2', 13], ['maths pour ma classe de 8H', 11], ['my 5th graders', 10], ['outils pour des enfants de 3 à 6 ans', 3],
    ['révisions pour mes élèves de terminale', 17],
  ];
  for (const [q, age] of ages) assert.equal((await get(app, q)).meta.query.age, age, q);
  // A class named alone stays a level.
  for (const q of ['maths 6e', 'quiz CM2', 'français seconde']) assert.equal((await get(app, q)).meta.query.age, null, q);
});

test('constraints › « maths CE2 hors connexion »: only tools known to work offline, and the query without it as typed', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  const tools = new Map(loaded.dataset.tools.map((tool) => [tool.slug, tool]));
  const body = await get(app, 'maths CE2 hors connexion');
  assert.ok(body.meta.total > 0);
  for (const { slug } of body.data) assert.equal(tools.get(slug)!.school.offline, true, slug);
  assert.equal(body.meta.query.without_constraints.q, 'maths CE2');
  assert.ok(body.meta.query.without_constraints.total > body.meta.total);
});

test('constraints › a sentence whose constraints few of the tools holding its most words keep reaches down to those holding fewer', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  const q = 'Je suis en GS dans une petite école rurale et on a de vieux ordinateurs sans internet : je cherche un logiciel de dessin gratuit adapté à mes élèves de 5 ans.';
  const body = await get(app, q);
  // Offline, free, for a class of 5: a page of such tools, the drawing one first among them.
  assert.ok(body.meta.total >= 10, `${q}: ${body.meta.total}`);
  assert.ok(body.data.slice(0, 3).some((d) => d.slug === 'tux-paint'), body.data.slice(0, 5).map((d) => d.slug).join(', '));
});

test('constraints › a constraint said of an alternative keeps both: « alternative libre à Padlet », « alternative open source à Kahoot », `Quizlet open source alternative`', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  const tools = new Map(loaded.dataset.tools.map((tool) => [tool.slug, tool]));
  const cases: Array<[string, string, string]> = [
    ['alternative libre à Padlet pour la classe', 'padlet', 'digipad'],
    ['alternative open source à Kahoot', 'kahoot', 'digiquiz'],
    ['Quizlet open source alternative', 'quizlet', 'digiflashcards'],
    // After « une » (« une alternative » is an alternative word too), and with conversation around.
    ['existe-t-il une alternative libre à Padlet pour ma classe ?', 'padlet', 'digipad'],
  ];
  for (const [q, named, like] of cases) {
    const body = await get(app, q);
    assert.deepEqual(body.meta.query.similar_to.map((s: { slug: string }) => s.slug), [named], q);
    assert.deepEqual(body.meta.query.facts.map((f: { filter: Record<string, unknown> }) => f.filter), [{ open_source: true }], q);
    // The constraint's words rank nothing (no tool comes first for « open » in its name), nor does « pour la classe ».
    assert.deepEqual(body.meta.query.searched, [], q);
    const found = body.data.map((d) => d.slug);
    assert.ok(found.slice(0, 3).includes(like), `${q}: ${found.slice(0, 5).join(', ')}`);
    for (const slug of found) assert.equal(tools.get(slug)!.school.open_source, true, `${q}: ${slug}`);
  }
  // « libre » said of a tool is the constraint; a free afternoon is not.
  assert.deepEqual((await get(app, 'outil libre carte mentale')).meta.query.facts.map((f: { label: string }) => f.label), ['logiciel libre']);
});

test('constraints › conversation ends where a constraint begins: « avec un logiciel libre » is the open-source constraint', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  for (const q of ['quiz avec un logiciel libre', 'produire une bibliographie avec un logiciel libre', 'je cherche une application libre pour les cartes mentales']) {
    const { meta } = await get(app, q);
    assert.deepEqual(meta.query.facts.map((f: { filter: Record<string, unknown> }) => f.filter), [{ open_source: true }], q);
  }
});

test('constraints › a tool named with a typing error after an alternative word is still the one asked about: « l’équivalent libre de Padlett »', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  const body = await get(app, 'c’est quoi l’équivalent libre de Padlett ?');
  assert.deepEqual(body.meta.query.similar_to.map((s: { slug: string }) => s.slug), ['padlet']);
  assert.deepEqual(body.meta.query.facts.map((f: { filter: Record<string, unknown> }) => f.filter), [{ open_source: true }]);
  assert.ok(body.data.slice(0, 3).some((d) => d.slug === 'digipad'), body.data.map((d) => d.slug).join(', '));
  assert.deepEqual((await get(app, 'alternative à Kahot')).meta.query.similar_to.map((s: { slug: string }) => s.slug), ['kahoot']);
});

test('constraints › beside a named tool, the words of teaching are not searched, and pupils joining with a code is the pupil-account constraint', async (t) => {
  const { app } = await buildTestApp(t, { dataset: loaded.dataset });
  const alone = (await get(app, 'alternative à Kahoot')).data.map((d) => d.slug).slice(0, 5);
  for (const q of ['alternative à Kahoot pour les élèves', 'Kahoot alternative for my students', 'un équivalent de Kahoot pour la classe']) {
    const body = await get(app, q);
    assert.deepEqual(body.meta.query.similar_to.map((s: { slug: string }) => s.slug), ['kahoot'], q);
    // No tool ranks for writing « élèves » or « classe »: the tools like Kahoot come as they do alone.
    assert.deepEqual(body.meta.query.searched, [], q);
    assert.deepEqual(body.data.map((d) => d.slug).slice(0, 5), alone, q);
  }
  const tools = new Map(loaded.dataset.tools.map((tool) => [tool.slug, tool]));
  for (const q of ['Kahoot alternative where students join with a code', 'quiz où les élèves rejoignent avec un code']) {
    const body = await get(app, q);
    assert.deepEqual(body.meta.query.facts.map((f: { filter: Record<string, unknown> }) => f.filter), [{ pupil_account: ['none', 'class_code'] }], q);
    assert.ok(!body.meta.query.searched.includes('code'), `${q}: ${body.meta.query.searched}`);
    assert.ok(body.data.length > 0, q);
    for (const { slug } of body.data) assert.ok(['none', 'class_code'].includes(tools.get(slug)!.school.pupil_account!), `${q}: ${slug}`);
  }
});
