/**
 * One rule for MCP arguments (docs/api-decisions.md, "MCP arguments"): every argument takes
 * its natural JSON type and REST's text (booleans true/false or "true"/"false"/"1"/"0",
 * lists ["a","b"] or "a,b", numbers 12 or "12"), and every refusal of an argument (one the
 * tool does not take, a wrong JSON type, a value REST refuses) is a tool execution error
 * (`isError: true`) carrying the REST problem, in the client's language, naming it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { API, buildTestApp } from '../helpers/build-app.js';
import { ERAS, connectClient, structured } from '../helpers/mcp-client.js';

async function rest(app: FastifyInstance, url: string, lang?: string) {
  const res = await app.inject({ url: `${API}${url}`, headers: lang === undefined ? {} : { 'accept-language': lang } });
  return { status: res.statusCode, body: res.json() };
}

/** The problem a tool error carries as its text. */
function problemOf(result: { isError?: boolean; content?: unknown }) {
  assert.equal(result.isError, true, `expected an error result, got ${JSON.stringify(result).slice(0, 300)}`);
  const [block] = result.content as Array<{ type: string; text: string }>;
  return JSON.parse(block!.text) as { type: string; status: number; detail: string; errors: Array<{ parameter: string; code: string; message: string; value: string; suggestion?: string }> };
}

const LISTS: Array<[string, string[]]> = [
  ['category', ['quiz', 'ecriture']],
  ['pricing', ['free', 'freemium']],
  ['level', ['6e', 'lycee']],
  ['subject', ['svt', 'anglais']],
  ['pupil_use', ['independent', 'supervised']],
  ['pupil_account', ['none', 'class_code']],
  ['generative_ai', ['none', 'feature']],
  ['trains_on_user_data', ['no', 'not_applicable']],
  ['data_location', ['france', 'eu']],
  ['institutional_access', ['gar', 'ent']],
  ['platform', ['web', 'android']],
  ['language', ['fr', 'en']],
  ['tag', ['open-source', 'rgpd']],
];
/** Lists that mean something only with another argument: for_pupils with age. */
const LISTS_WITH_AGE = ['for_pupils'];
const BOOLEANS = ['has_education_pricing', 'include_transversal', 'offline', 'open_source'];

for (const era of ERAS) {
  test(`MCP (${era}) › search_tools: every list takes ["a","b"] and "a,b", every boolean true/false and "true"/"false"/"1"/"0", numbers 12 and "12": all as REST answers`, async (t) => {
    // One base for the links of both doors.
    const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' } });
    const client = await connectClient(t, app, { era });
    const search = async (args: Record<string, unknown>) => structured(await client.callTool({ name: 'search_tools', arguments: { per_page: 25, ...args } }));
    for (const [name, values] of LISTS) {
      const expected = await rest(app, `/tools?${name}=${encodeURIComponent(values.join(','))}&per_page=25`);
      assert.equal(expected.status, 200, name);
      assert.deepEqual(await search({ [name]: values }), expected.body, `${name} as a list`);
      assert.deepEqual(await search({ [name]: values.join(',') }), expected.body, `${name} as "a,b"`);
      const one = await rest(app, `/tools?${name}=${encodeURIComponent(values[0]!)}&per_page=25`);
      assert.deepEqual(await search({ [name]: values[0] }), one.body, `${name} as one string`);
      assert.deepEqual(await search({ [name]: [values[0]] }), one.body, `${name} as a list of one`);
    }
    for (const name of BOOLEANS) {
      const extra = name === 'include_transversal' ? { subject: 'svt' } : {};
      const extraQuery = name === 'include_transversal' ? '&subject=svt' : '';
      for (const [forms, text] of [[[true, 'true', '1', 'TRUE'], '1'], [[false, 'false', '0'], '0']] as const) {
        const expected = await rest(app, `/tools?${name}=${text}${extraQuery}&per_page=25`);
        for (const value of forms) assert.deepEqual(await search({ ...extra, [name]: value }), expected.body, `${name}: ${JSON.stringify(value)}`);
      }
    }
    const age = await rest(app, '/tools?age=13&page=1&per_page=2');
    assert.deepEqual(await search({ age: '13', page: '1', per_page: '2' }), age.body, 'numbers as text');
    assert.deepEqual(await search({ age: 13, page: 1, per_page: 2 }), age.body);
    const led = await rest(app, '/tools?age=13&for_pupils=yes,teacher_led&per_page=25');
    assert.equal(led.status, 200);
    assert.deepEqual(await search({ age: 13, for_pupils: ['yes', 'teacher_led'] }), led.body, 'for_pupils as a list');
    assert.deepEqual(await search({ age: 13, for_pupils: 'yes,teacher_led' }), led.body, 'for_pupils as "a,b"');
    // null is as if absent, as a blank REST parameter is.
    assert.deepEqual(await search({ offline: null, category: null }), (await rest(app, '/tools?per_page=25')).body);
  });

  test(`MCP (${era}) › an unknown argument, a wrong type and an out-of-range value are all tool errors with the REST problem, naming the argument, in the client's language`, async (t) => {
    const { app } = await buildTestApp(t);
    for (const lang of ['fr', 'en'] as const) {
      const client = await connectClient(t, app, { era, headers: { 'accept-language': lang } });
      const call = async (name: string, args: Record<string, unknown>) => problemOf(await client.callTool({ name, arguments: args }));

      // Out of range: REST's own problem, word for word.
      const age = await call('search_tools', { age: 2 });
      const restAge = await rest(app, '/tools?age=2', lang);
      assert.equal(restAge.status, 400);
      assert.equal(age.detail, restAge.body.detail);
      assert.deepEqual(age.errors, restAge.body.errors);
      assert.equal(age.type, restAge.body.type);
      assert.equal(age.errors[0]!.parameter, 'age');
      assert.match(age.detail, lang === 'fr' ? /^age doit être un âge en années/ : /^age must be an age in years/);

      // A wrong JSON type: named, with the forms the argument takes.
      const wrong = await call('search_tools', { age: true, offline: 5, category: { a: 1 }, pupil_account: ['none', 3], q: 12 });
      assert.deepEqual(wrong.errors.map((e) => [e.parameter, e.code]), [['age', 'wrong_type'], ['offline', 'wrong_type'], ['category', 'wrong_type'], ['pupil_account', 'wrong_type'], ['q', 'wrong_type']]);
      assert.equal(wrong.status, 400);
      assert.equal(
        wrong.errors.find((e) => e.parameter === 'offline')!.message,
        lang === 'fr' ? 'doit valoir true ou false (ou « true », « false », « 1 », « 0 »)' : 'must be true or false (or "true", "false", "1", "0")',
      );
      assert.match(wrong.detail, lang === 'fr' ? /^age doit être un nombre entier \(12 ou « 12 »\)\. offline doit valoir true ou false/ : /^age must be a whole number \(12 or "12"\)\. offline must be true or false/);
      assert.doesNotMatch(JSON.stringify(wrong), /data\/|must be >=|must be boolean|invalid_type/, 'no validator text');

      // An argument the tool does not take: named, with the nearest one.
      const unknown = await call('search_tools', { q: 'quiz', categroy: 'video' });
      assert.deepEqual(unknown.errors.map((e) => [e.parameter, e.code, e.suggestion]), [['categroy', 'unknown_argument', 'category']]);
      assert.match(unknown.detail, lang === 'fr' ? /^categroy n’est pas un argument de search_tools \(arguments : q, category, .*\) ; vouliez-vous dire « category » \?$/ : /^categroy is not an argument of search_tools \(arguments: q, category, .*\); did you mean "category"\?$/);
      const none = await call('list_levels', { q: 'x' });
      assert.equal(none.detail, lang === 'fr' ? 'q n’est pas un argument de list_levels, qui n’en prend aucun.' : 'q is not an argument of list_levels, which takes none.');

      // All at once, in one problem: the JSON values' errors, then REST's.
      const all = await call('search_tools', { categroy: 'x', offline: 'peut-être', age: 2, per_page: 'beaucoup' });
      assert.deepEqual(all.errors.map((e) => e.parameter).sort(), ['age', 'categroy', 'offline', 'per_page']);

      // A required argument that is missing or of the wrong type.
      assert.deepEqual((await call('get_tool', {})).errors.map((e) => [e.parameter, e.code]), [['slug', 'required']]);
      assert.deepEqual((await call('get_collection', { slug: 42 })).errors.map((e) => [e.parameter, e.code]), [['slug', 'wrong_type']]);
      assert.equal((await call('list_collections', { kind: 'stak' })).errors[0]!.suggestion, 'stack');
    }
  });
}

test('MCP › tools/list: every list argument takes an array or a string and is described, every boolean a boolean or a string; per_page declares its maximum, 25', async (t) => {
  const { app } = await buildTestApp(t);
  const client = await connectClient(t, app, { era: 'auto' });
  const { tools } = await client.listTools();
  const search = tools.find((tool) => tool.name === 'search_tools')!;
  const properties = search.inputSchema.properties as Record<string, { type?: unknown; description?: string; maximum?: number; minimum?: number }>;
  for (const name of [...LISTS.map(([list]) => list), ...LISTS_WITH_AGE]) {
    assert.deepEqual(properties[name]?.type, ['array', 'string'], name);
    assert.ok((properties[name]?.description ?? '').length > 0, `${name} is described`);
  }
  for (const name of BOOLEANS) assert.deepEqual(properties[name]?.type, ['boolean', 'string'], name);
  for (const [name, property] of Object.entries(properties)) {
    assert.ok((property.description ?? '').length > 0, `${name} is described`);
    if (Array.isArray(property.type) && property.type.includes('array')) assert.ok(LISTS.some(([list]) => list === name) || LISTS_WITH_AGE.includes(name), `${name} is a list the test knows`);
  }
  assert.deepEqual([properties.per_page?.minimum, properties.per_page?.maximum], [1, 25]);
  assert.match(search.description ?? '', /\["a","b"\] or "a,b"/);
  assert.match(search.description ?? '', /true\/false or "1"\/"0"/);
});
