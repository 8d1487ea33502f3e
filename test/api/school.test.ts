/**
 * The school facts through HTTP (API.md, "School use"): the `school` object on the detail
 * and the summary, GET /levels and /subjects, aliases in the filters, refusals with the
 * nearest valid value in French and English, `age`, facets, and CSV columns.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { API, buildTestApp } from '../helpers/build-app.js';

const slugs = (body: { data: Array<{ slug: string }> }) => body.data.map((t) => t.slug);

test('GET /tools/{slug} › carries the whole school object, sources included; the summary leaves sources out', async (t) => {
  const { app } = await buildTestApp(t);
  const detail = (await app.inject({ url: `${API}/tools/eau-vive` })).json().data;
  assert.deepEqual(detail.school, {
    levels: ['elementaire', 'college'], subjects: ['physique-chimie', 'svt'], pupil_use: 'independent', pupil_account: 'none', min_age: 10, consent_age: 15,
    generative_ai: 'feature', trains_on_user_data: 'no', data_location: 'eu', institutional_access: null, offline: true, open_source: false,
    for_pupils: [
      { from: 3, to: 9, answer: 'no', reasons: ['terms_min_age'] },
      { from: 10, to: 12, answer: 'with_consent', reasons: ['terms_consent_age', 'framework_genai_feature'] },
      { from: 13, to: 14, answer: 'with_consent', reasons: ['terms_consent_age'] },
      { from: 15, to: null, answer: 'yes', reasons: ['terms_allow'] },
    ],
    accessibility_url: null, sources: [{ fields: ['min_age', 'consent_age', 'trains_on_user_data', 'data_location'], url: 'https://eau-vive.example.org/cgu', page_date: '2026-09-01', checked_at: '2026-11-20' }],
  });
  const list = (await app.inject({ url: `${API}/tools?q=eau%20vive` })).json().data;
  const summary = list.find((x: { slug: string }) => x.slug === 'eau-vive');
  assert.equal(summary.school.min_age, 10);
  assert.equal(summary.school.consent_age, 15);
  assert.equal('sources' in summary.school, false);
  assert.equal('accessibility_url' in summary.school, false);
  // A tool nobody documented: every fact null, never a guess.
  const unknown = (await app.inject({ url: `${API}/tools/quiz-master` })).json().data.school;
  const { for_pupils: pupils, ...facts } = unknown;
  assert.ok(Object.entries(facts).every(([k, v]) => (k === 'sources' ? Array.isArray(v) && v.length === 0 : v === null)));
  // ...and so is whether pupils may use it, at every age.
  assert.deepEqual(pupils, [{ from: 3, to: null, answer: 'unknown', reasons: ['pupil_use_unknown'] }]);
});

test('GET /levels and /subjects › the vocabularies in order, with aliases, ages, ISCED and published-tool counts', async (t) => {
  const { app } = await buildTestApp(t);
  const levels = (await app.inject({ url: `${API}/levels` })).json();
  assert.deepEqual(levels.data.map((l: { slug: string }) => l.slug), ['maternelle', 'elementaire', 'college', 'lycee', 'lycee-pro', 'superieur', 'adultes']);
  const college = levels.data.find((l: { slug: string }) => l.slug === 'college');
  assert.equal(college.tool_count, 2);
  assert.ok(college.aliases.includes('6e') && college.aliases.includes('cycle 4'));
  assert.deepEqual(college.ages, { min: 11, max: 14 });
  assert.deepEqual(college.isced, ['24']);
  assert.equal(levels.meta.license.name, 'CC BY 4.0');
  const subjects = (await app.inject({ url: `${API}/subjects` })).json();
  const hg = subjects.data.find((s: { slug: string }) => s.slug === 'histoire-geographie');
  assert.ok(hg.aliases.includes('hg'));
  assert.equal(subjects.data.find((s: { slug: string }) => s.slug === 'svt').tool_count, 1);
  const head = await app.inject({ method: 'HEAD', url: `${API}/levels` });
  assert.equal(head.statusCode, 200);
});

test('GET /tools › level and subject take slugs and aliases: 6e is collège, cycle 3 is élémentaire and collège, hg is histoire-géographie', async (t) => {
  const { app } = await buildTestApp(t);
  const get = async (qs: string) => (await app.inject({ url: `${API}/tools?${qs}` })).json();
  assert.deepEqual(slugs(await get('level=6e')), slugs(await get('level=college')));
  assert.deepEqual(slugs(await get('level=6E')), ['eau-vive', 'quizzy']);
  assert.deepEqual(slugs(await get('level=cycle%203')), ['eau-vive', 'quizzy']);
  assert.deepEqual(slugs(await get('level=Terminale')), ['atelier-quiz']);
  assert.deepEqual(slugs(await get('subject=sciences%20de%20la%20vie%20et%20de%20la%20terre')), ['eau-vive']);
  // Transversal tools match a subject only when asked.
  assert.deepEqual(slugs(await get('subject=svt')), ['eau-vive']);
  assert.deepEqual(slugs(await get('subject=svt&include_transversal=1')), ['eau-vive', 'quizzy']);
  assert.deepEqual(slugs(await get('subject=hg')), []);
  // The links repeat the query in canonical form (aliases resolved).
  assert.match((await get('level=6e&subject=SVT')).links.self, /level=college&subject=svt/);
});

test('GET /tools › an unknown level or subject is a 400 naming the parameter, with the nearest value, in French and English', async (t) => {
  const { app } = await buildTestApp(t);
  const fr = await app.inject({ url: `${API}/tools?level=colege&subject=histoir` });
  assert.equal(fr.statusCode, 400);
  const body = fr.json();
  assert.deepEqual(body.errors.map((e: { parameter: string; suggestion?: string }) => [e.parameter, e.suggestion]), [['level', 'college'], ['subject', 'histoire-geographie']]);
  assert.match(body.detail, /level doit être un niveau de \/levels/);
  const en = await app.inject({ url: `${API}/tools?level=colege`, headers: { 'accept-language': 'en' } });
  assert.match(en.json().detail, /level must be a level of \/levels.*did you mean "college"/);
  for (const bad of ['age=2', 'age=100', 'age=12.5', 'age=douze', 'pupil_use=alone', 'offline=peut-etre', 'institutional_access=gar,moodle']) {
    const res = await app.inject({ url: `${API}/tools?${bad}` });
    assert.equal(res.statusCode, 400, bad);
    assert.equal(res.json().errors[0].parameter, bad.split('=')[0]);
  }
});

test('GET /tools?age › only tools pupils of that age may use: not teacher-only, minimum age known and at most the age', async (t) => {
  const { app } = await buildTestApp(t);
  const get = async (age: number) => slugs((await app.inject({ url: `${API}/tools?age=${age}` })).json());
  assert.deepEqual(await get(8), ['quizzy']);
  assert.deepEqual(await get(13), ['eau-vive', 'quizzy']);
  // atelier-quiz has min_age 18 but is teacher-only: never listed for pupils.
  assert.deepEqual(await get(40), ['eau-vive', 'quizzy']);
});

test('GET /tools › the other school filters, and their facets counted without their own filter', async (t) => {
  const { app } = await buildTestApp(t);
  const res = (await app.inject({ url: `${API}/tools?generative_ai=none,feature&facets=generative_ai,offline,level` })).json();
  assert.deepEqual(slugs(res), ['eau-vive', 'quizzy']);
  assert.deepEqual(res.meta.facets.generative_ai, [
    { value: 'none', label: 'Aucun', count: 1, selected: true },
    { value: 'feature', label: 'En fonctionnalité', count: 1, selected: true },
    { value: 'core', label: 'Au cœur du produit', count: 1, selected: false },
  ]);
  assert.deepEqual(res.meta.facets.offline, [
    { value: true, label: 'Oui', count: 1, selected: false },
    { value: false, label: 'Non', count: 1, selected: false },
  ]);
  assert.deepEqual(res.meta.facets.level.map((v: { value: string; count: number }) => [v.value, v.count]), [['elementaire', 2], ['college', 2]]);
  assert.deepEqual(slugs((await app.inject({ url: `${API}/tools?open_source=1` })).json()), ['quizzy']);
  assert.deepEqual(slugs((await app.inject({ url: `${API}/tools?open_source=0` })).json()), ['atelier-quiz', 'eau-vive']);
  assert.deepEqual(slugs((await app.inject({ url: `${API}/tools?data_location=eu,france` })).json()), ['eau-vive']);
  assert.deepEqual(slugs((await app.inject({ url: `${API}/tools?pupil_account=class_code` })).json()), ['quizzy']);
});

test('GET /export/tools.csv › one column per school fact, lists joined by |', async (t) => {
  const { app } = await buildTestApp(t);
  const csv = (await app.inject({ url: `${API}/export/tools.csv` })).body;
  const rows: Array<Record<string, string>> = parse(csv.replace(/^\uFEFF/, ''), { delimiter: ';', columns: true });
  const row = rows.find((r) => r.slug === 'eau-vive')!;
  assert.equal(row.levels, 'elementaire|college');
  assert.equal(row.subjects, 'physique-chimie|svt');
  assert.equal(row.min_age, '10');
  assert.equal(row.offline, 'true');
  assert.equal(row.school_sources, 'https://eau-vive.example.org/cgu');
  assert.equal(row.consent_age, '15');
  assert.equal(row.school_sources_page_dates, '2026-09-01');
  assert.equal(row.school_sources_checked_at, '2026-11-20');
  assert.equal(rows.find((r) => r.slug === 'quiz-master')!.levels, '');
});

test('GET /tools › platform, language and tag filters, their facets, and a 400 for a malformed value', async (t) => {
  const { app } = await buildTestApp(t);
  const all = (await app.inject({ url: `${API}/tools?per_page=100` })).json().data.length;
  assert.equal((await app.inject({ url: `${API}/tools?platform=web` })).json().meta.total, all, 'every fixture tool is on the web');
  assert.equal((await app.inject({ url: `${API}/tools?platform=ios` })).json().meta.total, 0);
  assert.equal((await app.inject({ url: `${API}/tools?language=FR,de` })).json().meta.total, all);
  assert.equal((await app.inject({ url: `${API}/tools?tag=test` })).json().meta.total, all);
  assert.equal((await app.inject({ url: `${API}/tools?tag=inconnu` })).json().meta.total, 0);
  const facets = (await app.inject({ url: `${API}/tools?facets=platform,language,tag` })).json().meta.facets;
  assert.equal(facets.platform.length, 8);
  assert.deepEqual(facets.platform[0], { value: 'web', label: 'Navigateur web', count: all, selected: false });
  assert.deepEqual(facets.language, [{ value: 'fr', label: 'français', count: all, selected: false }]);
  assert.deepEqual(facets.tag, [{ value: 'test', label: 'test', count: all, selected: false }]);
  for (const bad of ['platform=ipad', 'language=fra', 'tag=Pas un tag']) {
    const res = await app.inject({ url: `${API}/tools?${bad.replace(/ /g, '%20')}` });
    assert.equal(res.statusCode, 400, bad);
    assert.equal(res.json().errors[0].parameter, bad.split('=')[0]);
  }
});
