/**
 * "Can my pupils use it?" (API.md, `for_pupils`; issue 44): the engine on hand-made tools
 * (every reason code, contiguous bands, unknown where a fact is missing), the bundled
 * directory's answers against the framework and the terms, the `age` filter against a brute
 * force over every tool and age, `for_pupils=yes`, GET /rules, and MCP equal to REST.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Dataset, ForPupilsBand, ReasonCode, SchoolFacts } from '../../src/domain.js';
import { REASON_CODES } from '../../src/domain.js';
import { loadContent } from '../../src/content/load-content.js';
import { answerAt, bandAt, bestCase, defaultRules, forPupils } from '../../src/school/for-pupils.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { FIXTURE_RULES, school } from '../helpers/fixture.js';
import { connectClient, structured } from '../helpers/mcp-client.js';

const FR = FIXTURE_RULES[0]!;
const facts = (f: Partial<SchoolFacts>) => school({ pupil_use: 'independent', pupil_account: 'none', min_age: 0, generative_ai: 'none', ...f });

function contiguous(bands: readonly ForPupilsBand[]) {
  assert.equal(bands[0]!.from, 3);
  assert.equal(bands.at(-1)!.to, null);
  for (let k = 1; k < bands.length; k++) assert.equal(bands[k]!.from, bands[k - 1]!.to! + 1, 'no gap, no overlap');
}

test('for_pupils › each reason code from hand-made tools; bands contiguous from 3, open-ended; unknown only where a needed fact is null', () => {
  const cases: Array<[Partial<SchoolFacts>, number, string, ReasonCode[]]> = [
    [{ pupil_use: null }, 10, 'unknown', ['pupil_use_unknown']],
    [{ pupil_use: 'teacher_only', pupil_account: null }, 10, 'teacher_led', ['teacher_only']],
    [{ min_age: null }, 10, 'unknown', ['min_age_unknown']],
    [{ min_age: 13 }, 12, 'no', ['terms_min_age']],
    [{ min_age: 13 }, 13, 'yes', ['terms_allow']],
    [{ generative_ai: null }, 12, 'unknown', ['generative_ai_unknown']],
    [{ generative_ai: null }, 13, 'yes', ['terms_allow']],
    [{ generative_ai: 'core' }, 12, 'teacher_led', ['framework_genai_autonomy']],
    [{ generative_ai: 'core' }, 13, 'yes', ['terms_allow']],
    [{ generative_ai: 'core', pupil_account: 'personal', consent_age: 18, min_age: 13 }, 16, 'teacher_led', ['framework_no_pupil_account']],
    [{ generative_ai: 'core', pupil_account: 'personal', consent_age: 18, min_age: 13 }, 18, 'yes', ['terms_allow']],
    [{ generative_ai: 'feature' }, 9, 'yes', ['terms_allow', 'framework_genai_feature']],
    [{ consent_age: 13 }, 12, 'with_consent', ['terms_consent_age']],
    [{ pupil_account: 'personal', consent_age: null }, 14, 'with_consent', ['digital_consent_age']],
    [{ pupil_account: 'personal', consent_age: null }, 16, 'unknown', ['consent_age_unknown']],
    [{ pupil_account: 'personal', consent_age: 13 }, 16, 'yes', ['terms_allow']],
    [{ pupil_account: 'teacher_created' }, 8, 'yes', ['terms_allow', 'school_account']],
  ];
  const seen = new Set<string>();
  for (const [f, age, answer, reasons] of cases) {
    const s = facts(f);
    const bands = forPupils(s, FR);
    contiguous(bands);
    assert.deepEqual(answerAt(s, FR, age), { answer, reasons }, `${JSON.stringify(f)} at ${age}`);
    // The bands say what the engine says at every age.
    for (let a = 3; a <= 30; a++) assert.deepEqual({ answer: bandAt(bands, a).answer, reasons: bandAt(bands, a).reasons }, answerAt(s, FR, a), `${JSON.stringify(f)} band at ${a}`);
    for (const r of reasons) seen.add(r);
  }
  assert.deepEqual([...seen].sort(), [...REASON_CODES].sort(), 'every reason code is reached');
  // Neighbours with the same answer are one band.
  assert.deepEqual(forPupils(facts({}), FR), [{ from: 3, to: null, answer: 'yes', reasons: ['terms_allow'] }]);
});

test('for_pupils › the best case of a tool whose answer is unknown: its unknown facts read in its favour, never what a known fact or the framework rules out', () => {
  const at = (f: Partial<SchoolFacts>, age: number) => answerAt(bestCase(facts(f)), FR, age).answer;
  // A generative-AI product is teacher-led before the framework's age whatever its terms say.
  assert.equal(answerAt(facts({ min_age: null, generative_ai: 'core' }), FR, 10).answer, 'unknown');
  assert.equal(at({ min_age: null, generative_ai: 'core' }, 10), 'teacher_led');
  assert.equal(at({ min_age: null, generative_ai: 'core' }, 14), 'yes');
  // Unknown facts alone could all be read as allowing it.
  assert.equal(at({ min_age: null, pupil_use: null, generative_ai: null, pupil_account: null, consent_age: null }, 8), 'yes');
  // Known facts stay as read: teacher-only is teacher-led, a known minimum age still refuses.
  assert.equal(at({ pupil_use: 'teacher_only', min_age: null }, 8), 'teacher_led');
  assert.equal(at({ min_age: 13, consent_age: null, pupil_account: 'personal' }, 10), 'no');
});

let bundled: Dataset;
before(async () => {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  assert.ok(loaded.ok);
  bundled = loaded.dataset;
});

test('for_pupils › the bundled directory: every published tool answers; generative AI is never pupils’ own before the framework’s age, no tool is yes below its min_age', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const lines = (await app.inject({ url: `${API}/export/tools.ndjson` })).body.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, bundled.tools.filter((x) => x.status === 'published').length);
  const framework = FR.ages.genai_autonomy!;
  for (const tool of lines) {
    const { school: s } = tool;
    contiguous(s.for_pupils);
    for (let age = 3; age <= 25; age++) {
      const { answer } = bandAt(s.for_pupils, age);
      if (s.generative_ai === 'core' && age < framework) assert.ok(answer !== 'yes' && answer !== 'with_consent', `${tool.slug} at ${age}: ${answer}`);
      if (s.min_age !== null && age < s.min_age) assert.notEqual(answer, 'yes', `${tool.slug} at ${age}`);
      if (s.min_age === null || s.pupil_use === null) assert.ok(answer === 'unknown' || answer === 'teacher_led', `${tool.slug}: a needed fact is null`);
    }
  }
});

test('GET /tools?age › equal to a brute force over every tool’s for_pupils, ages 3–20, with and without for_pupils (yes; with teacher_led; with unknown)', async (t) => {
  const { app } = await buildTestApp(t, { dataset: bundled });
  const all: Array<{ slug: string; school: { for_pupils: ForPupilsBand[] } }> = (await app.inject({ url: `${API}/export/tools.ndjson` })).body.trim().split('\n').map((l) => JSON.parse(l));
  const listed = async (query: string) => {
    const slugs: string[] = [];
    for (let page = 1; ; page++) {
      const body = (await app.inject({ url: `${API}/tools?${query}&per_page=100&page=${page}` })).json();
      slugs.push(...body.data.map((x: { slug: string }) => x.slug));
      if (page >= body.meta.total_pages) return slugs.sort();
    }
  };
  const rules = defaultRules(bundled.rules)!;
  const best = new Map(bundled.tools.map((tool) => [tool.slug, forPupils(bestCase(tool.school), rules)]));
  for (let age = 3; age <= 20; age++) {
    const answers = all.map((x) => [x.slug, bandAt(x.school.for_pupils, age).answer] as const);
    const expected = answers.filter(([, a]) => a === 'yes' || a === 'with_consent').map(([s]) => s).sort();
    assert.deepEqual(await listed(`age=${age}`), expected, `age=${age}`);
    assert.deepEqual(await listed(`age=${age}&for_pupils=yes`), answers.filter(([, a]) => a === 'yes').map(([s]) => s).sort(), `age=${age}&for_pupils=yes`);
    // teacher_led adds the tools a teacher leads with pupils of that age; yes always counts.
    const kept = (wanted: string[]) => answers.filter(([, a]) => wanted.includes(a)).map(([s]) => s).sort();
    assert.deepEqual(await listed(`age=${age}&for_pupils=with_consent,teacher_led`), kept(['yes', 'with_consent', 'teacher_led']), `age=${age}&for_pupils=with_consent,teacher_led`);
    assert.deepEqual(await listed(`age=${age}&for_pupils=teacher_led`), kept(['yes', 'teacher_led']), `age=${age}&for_pupils=teacher_led`);
    assert.deepEqual(await listed(`age=${age}&for_pupils=yes,with_consent`), expected, `age=${age}&for_pupils=yes,with_consent`);
    // unknown adds the tools whose answer at that age waits on a fact nobody has read, as a
    // search's reading keeps them, when their facts read in their favour would give an answer kept.
    const orUnknown = (wanted: string[]) => answers.filter(([slug, a]) => wanted.includes(a) || (a === 'unknown' && wanted.includes(bandAt(best.get(slug)!, age).answer))).map(([s]) => s).sort();
    assert.deepEqual(await listed(`age=${age}&for_pupils=with_consent,unknown`), orUnknown(['yes', 'with_consent']), `age=${age}&for_pupils=with_consent,unknown`);
    assert.deepEqual(await listed(`age=${age}&for_pupils=with_consent,teacher_led,unknown`), orUnknown(['yes', 'with_consent', 'teacher_led']), `age=${age}&for_pupils=with_consent,teacher_led,unknown`);
  }
});

test('for_pupils › without age it is a 400 naming it, in French and English; a bad value suggests the nearest', async (t) => {
  const { app } = await buildTestApp(t);
  const alone = await app.inject({ url: `${API}/tools?for_pupils=yes` });
  assert.equal(alone.statusCode, 400);
  assert.equal(alone.json().errors[0].parameter, 'for_pupils');
  assert.match((await app.inject({ url: `${API}/tools?for_pupils=yes`, headers: { 'accept-language': 'en' } })).json().errors[0].message, /only applies with age/);
  assert.equal((await app.inject({ url: `${API}/tools?age=12&for_pupils=no` })).statusCode, 400, 'no: an answer the filter never keeps');
  assert.equal((await app.inject({ url: `${API}/tools?age=12&for_pupils=unknown` })).statusCode, 200, 'unknown: kept when asked');
  const bad = (await app.inject({ url: `${API}/tools?age=12&for_pupils=yess` })).json();
  assert.equal(bad.errors[0].suggestion, 'yes');
  assert.equal((await app.inject({ url: `${API}/tools?age=12&for_pupils=yes` })).statusCode, 200);
});

test('GET /rules › every reason code with its answer, French and English explanation and source; the framework’s rules say they are readings; cached with an ETag', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ url: `${API}/rules` });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.data[0].country, 'fr');
  assert.equal(body.data[0].default, true);
  assert.deepEqual(body.data[0].ages, { genai_autonomy: 13, digital_consent: 15, majority: 18 });
  const codes = body.data[0].rules.map((r: { code: string }) => r.code).sort();
  assert.deepEqual(codes, [...REASON_CODES].sort());
  for (const rule of body.data[0].rules) {
    assert.ok(rule.explanation.fr.length > 20 && rule.explanation.en.length > 20, rule.code);
    if (rule.code.startsWith('framework_')) {
      assert.match(rule.source.title, /Cadre d'usage de l'intelligence artificielle en éducation/);
      assert.equal(rule.reading, true);
    }
  }
  assert.equal(body.meta.license.name, 'CC BY 4.0');
  assert.equal((await app.inject({ url: `${API}/rules`, headers: { 'if-none-match': String(res.headers.etag) } })).statusCode, 304);
});

test('MCP › search_tools with age and for_pupils answers what REST answers; list_rules is GET /rules; get_tool carries for_pupils', async (t) => {
  const { app } = await buildTestApp(t);
  const client = await connectClient(t, app, { era: 'auto' });
  for (const args of [{ age: 12 }, { age: 12, for_pupils: 'yes' }, { age: 8, q: 'quiz' }]) {
    const mcp = structured(await client.callTool({ name: 'search_tools', arguments: { ...args, per_page: 25 } })) as { data: Array<{ slug: string }> };
    const query = Object.entries(args).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    const rest = (await app.inject({ url: `${API}/tools?${query}&per_page=25` })).json();
    assert.deepEqual(mcp.data.map((x) => x.slug), rest.data.map((x: { slug: string }) => x.slug), query);
  }
  const rules = structured(await client.callTool({ name: 'list_rules', arguments: {} }));
  assert.deepEqual(rules, (await app.inject({ url: `${API}/rules` })).json());
  const tool = structured(await client.callTool({ name: 'get_tool', arguments: { slug: 'eau-vive' } })) as { data: { school: { for_pupils: unknown } } };
  assert.deepEqual(tool.data.school.for_pupils, (await app.inject({ url: `${API}/tools/eau-vive` })).json().data.school.for_pupils);
});
