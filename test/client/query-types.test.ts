/**
 * One rule for the client's query parameters, the same as the MCP tools': each takes its
 * natural type and the text the API reads (booleans true/false or "true"/"false"/"1"/"0",
 * lists ['a', 'b'] or "a,b", numbers 2 or "2"). The objects below name every parameter of
 * GET /tools (`Required<ToolsQuery>`), so `tsc` checks both forms of each, and a parameter
 * added to the OpenAPI document fails to compile until it is listed here; then each form is
 * sent to the real server and answers what the REST URL answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createClient, LIST_PARAMETERS, queryString, type ToolsQuery } from '../../packages/client/src/index.js';
import { SEARCH_ARGUMENTS } from '../../src/mcp/tool-schemas.js';
import { API, buildTestApp } from '../helpers/build-app.js';

const natural = {
  page: 1, per_page: 5, category: ['quiz', 'ecriture'], pricing: ['free', 'freemium'], has_education_pricing: true, q: 'quiz', sort: 'name',
  updated_since: '2026-01-01T00:00:00Z', facets: ['category', 'pricing'], level: ['6e', 'lycee'], subject: ['svt', 'anglais'], include_transversal: true,
  age: 13, for_pupils: 'yes', pupil_use: ['independent', 'supervised'], pupil_account: ['none', 'class_code'], generative_ai: ['none', 'feature'],
  trains_on_user_data: ['no', 'not_applicable'], data_location: ['france', 'eu'], institutional_access: ['gar', 'ent'], offline: false, open_source: true,
  platform: ['web', 'android'], language: ['fr', 'en'], tag: ['test', 'rgpd'],
} satisfies Required<ToolsQuery>;

const restForms = {
  page: '1', per_page: '5', category: 'quiz,ecriture', pricing: 'free,freemium', has_education_pricing: '1', q: 'quiz', sort: 'name',
  updated_since: '2026-01-01T00:00:00Z', facets: 'category,pricing', level: '6e,lycee', subject: 'svt,anglais', include_transversal: 'true',
  age: '13', for_pupils: 'yes', pupil_use: 'independent,supervised', pupil_account: 'none,class_code', generative_ai: 'none,feature',
  trains_on_user_data: 'no,not_applicable', data_location: 'france,eu', institutional_access: 'gar,ent', offline: '0', open_source: 'true',
  platform: 'web,android', language: 'fr,en', tag: 'test,rgpd',
} satisfies Required<ToolsQuery>;

// What neither form is: refused by the compiler.
// @ts-expect-error a boolean is true/false or its text, not "yes"
const notBoolean: ToolsQuery = { offline: 'yes' };
// @ts-expect-error a list is strings
const notList: ToolsQuery = { category: [1, 2] };
// @ts-expect-error a number is a number or its text
const notNumber: ToolsQuery = { age: true };
// @ts-expect-error sort is not a list
const notSortList: ToolsQuery = { sort: ['name'] };

test('client › LIST_PARAMETERS are the MCP list arguments and facets: one list rule for both', () => {
  const mcpLists = Object.entries(SEARCH_ARGUMENTS).filter(([, arg]) => arg.kind === 'list').map(([name]) => name);
  assert.deepEqual([...LIST_PARAMETERS].sort(), [...mcpLists, 'facets'].sort());
  assert.ok([notBoolean, notList, notNumber, notSortList].every((q) => typeof q === 'object'));
});

test('client › every parameter of GET /tools, in its natural type and in the API\'s text, answers what the REST URL answers', async (t) => {
  const built = await buildTestApp(t);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  const api = createClient({ baseUrl, cacheSize: 0 });
  for (const name of Object.keys(natural) as Array<keyof typeof natural>) {
    // for_pupils means nothing without age (a 400): both go together.
    const withAge = name === 'for_pupils' ? { age: 13 } : {};
    const url = `${API}/tools${queryString({ ...withAge, [name]: restForms[name] })}`;
    const res = await fetch(`${baseUrl}${url}`);
    assert.equal(res.status, 200, `${url}: ${await res.clone().text()}`);
    const expected = await res.json();
    assert.deepEqual(await api.listTools({ ...withAge, [name]: natural[name] }), expected, `${name}: ${JSON.stringify(natural[name])}`);
    assert.deepEqual(await api.listTools({ ...withAge, [name]: restForms[name] }), expected, `${name}: ${JSON.stringify(restForms[name])}`);
  }
});
