/**
 * JSON-RPC parameters at /mcp: names that only Object.prototype knows (`toString`,
 * `constructor`, `__proto__`) are unknown names like any other, and a parameter of the
 * wrong type is the client's mistake (-32602, the REST problem's message), never an
 * internal error (-32603) carrying a validator's dump. In both protocol eras.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/build-app.js';
import { ERAS, type Era } from '../helpers/mcp-client.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'directory-tests', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One JSON-RPC exchange as a client of `era` sends it; the answer's message(s). */
async function rpc(app: FastifyInstance, era: Era, body: unknown, headers: Record<string, string> = {}) {
  const withEnvelope = (m: Record<string, unknown>) =>
    era === 'auto' ? { ...m, params: { ...((m.params as object | undefined) ?? {}), _meta: ENVELOPE } } : m;
  const payload = Array.isArray(body) ? body.map(withEnvelope) : withEnvelope(body as Record<string, unknown>);
  const method = Array.isArray(body) ? undefined : (body as { method: string }).method;
  // The 2026-07-28 transport repeats the method and the name (or URI) in headers.
  const params = Array.isArray(body) ? {} : (((body as { params?: Record<string, unknown> }).params ?? {}) as Record<string, unknown>);
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(era === 'auto' ? { 'mcp-protocol-version': '2026-07-28', ...(method ? { 'mcp-method': method } : {}), ...(name !== undefined ? { 'mcp-name': name } : {}) } : {}),
      ...headers,
    },
    payload: JSON.stringify(payload),
  });
  const text = res.body;
  const messages = res.headers['content-type']?.toString().startsWith('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)].flat();
  return { status: res.statusCode, messages, text };
}

const request = (id: number, method: string, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method, params });

for (const era of ERAS) {
  test(`MCP (${era}) › toString, constructor and __proto__ are unknown names: -32602 or an empty completion, never -32603`, async (t) => {
    const { app } = await buildTestApp(t);
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const call = (await rpc(app, era, request(1, 'tools/call', { name, arguments: {} }))).messages[0];
      assert.equal(call.error?.code, -32602, `tools/call ${name}: ${JSON.stringify(call)}`);
      assert.match(call.error.message, /params\.name doit valoir search_tools, get_tool/);
      assert.doesNotMatch(call.error.message, /disabled/);

      const prompt = (await rpc(app, era, request(2, 'prompts/get', { name }))).messages[0];
      assert.equal(prompt.error?.code, -32602, `prompts/get ${name}: ${JSON.stringify(prompt)}`);

      const promptCompletion = (await rpc(app, era, request(3, 'completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: 'besoin', value: 'a' } }))).messages[0];
      assert.equal(promptCompletion.error?.code, -32602, `completion of prompt ${name}: ${JSON.stringify(promptCompletion)}`);

      // An argument the template does not have completes to nothing, as any unknown one.
      const argument = (await rpc(app, era, request(4, 'completion/complete', { ref: { type: 'ref/resource', uri: 'annuaire://tools/{slug}' }, argument: { name, value: 'q' } }))).messages[0];
      assert.deepEqual(argument.result?.completion?.values, [], `completion of argument ${name}: ${JSON.stringify(argument)}`);

      const read = (await rpc(app, era, request(5, 'resources/read', { uri: `annuaire://tools/${name}` }))).messages[0];
      assert.equal(read.error?.code, -32602, `resources/read ${name}: ${JSON.stringify(read)}`);

      const slug = (await rpc(app, era, request(6, 'tools/call', { name: 'get_tool', arguments: { slug: name } }))).messages[0];
      assert.equal(slug.result?.isError, true, `get_tool ${name}: ${JSON.stringify(slug)}`);
    }
    // The real names still work.
    const completion = (await rpc(app, era, request(7, 'completion/complete', { ref: { type: 'ref/resource', uri: 'annuaire://tools/{slug}' }, argument: { name: 'slug', value: 'quiz' } }))).messages[0];
    assert.deepEqual(completion.result.completion.values, ['quiz-master', 'quizzy']);
  });

  test(`MCP (${era}) › a parameter of the wrong type is -32602 with the REST problem's message, in the client's language, without a validator dump`, async (t) => {
    const { app } = await buildTestApp(t);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['completion/complete', { ref: { type: 'ref/resource', uri: 'annuaire://tools/{slug}' }, argument: { name: 'slug', value: 5 } }, 'params.argument.value doit être une chaîne de caractères.'],
      ['completion/complete', { argument: { name: 'slug', value: 'a' } }, 'params.ref est requis.'],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'recommander_des_outils' }, argument: { name: 'besoin', value: 'a' }, context: 5 }, 'params.context doit être un objet JSON.'],
      ['resources/read', { uri: 5 }, 'params.uri doit être une chaîne de caractères.'],
      ['tools/list', { cursor: 5 }, 'params.cursor doit être une chaîne de caractères.'],
      ['tools/call', { name: 5 }, 'params.name doit être une chaîne de caractères.'],
      ['tools/call', { name: 'get_tool', arguments: 5 }, 'params.arguments doit être un objet JSON.'],
      ['prompts/get', { name: 'recommander_des_outils', arguments: 5 }, 'params.arguments doit être un objet JSON.'],
      ['prompts/get', { name: 'recommander_des_outils', arguments: { besoin: 5 } }, 'params.arguments.besoin doit être une chaîne de caractères.'],
    ];
    for (const [method, params, message] of cases) {
      const answer = (await rpc(app, era, request(1, method, params))).messages[0];
      assert.equal(answer.error?.code, -32602, `${method} ${JSON.stringify(params)}: ${JSON.stringify(answer)}`);
      assert.equal(answer.error.message, message);
      assert.doesNotMatch(JSON.stringify(answer), /invalid_type|"expected"/, 'no validator dump');
      assert.equal(answer.error.data.type, 'http://localhost/problems/invalid-parameter');
      assert.equal(answer.id, 1);
    }
    const english = (await rpc(app, era, request(1, 'tools/call', { name: 'get_tol' }), { 'accept-language': 'en' })).messages[0];
    assert.equal(english.error.message, 'params.name must be search_tools, get_tool, list_collections, get_collection, list_categories, list_levels, list_subjects or list_rules; did you mean "get_tool"?');
    assert.equal(english.error.data.errors[0].suggestion, 'get_tool');
  });

  test(`MCP (${era}) › an argument a tool does not take is a tool error naming it, with the tool's arguments and the nearest one (never -32602)`, async (t) => {
    const { app } = await buildTestApp(t);
    const problem = (answer: { error?: unknown; result?: { isError?: boolean; content?: Array<{ text: string }> } }) => {
      assert.equal(answer.error, undefined, JSON.stringify(answer));
      assert.equal(answer.result?.isError, true, JSON.stringify(answer));
      return JSON.parse(answer.result!.content![0]!.text);
    };
    const typo = problem((await rpc(app, era, request(1, 'tools/call', { name: 'search_tools', arguments: { q: 'quiz', categroy: 'video' } }))).messages[0]);
    assert.match(typo.detail, /^categroy n’est pas un argument de search_tools \(arguments : q, category, pricing, .*\) ; vouliez-vous dire « category » \?$/);
    assert.deepEqual(typo.errors.map((e: { parameter: string; code: string; suggestion?: string }) => [e.parameter, e.code, e.suggestion]), [['categroy', 'unknown_argument', 'category']]);
    assert.equal(typo.type, 'http://localhost/problems/invalid-parameter');
    const none = problem((await rpc(app, era, request(2, 'tools/call', { name: 'list_levels', arguments: { q: 'x' } }), { 'accept-language': 'en' })).messages[0]);
    assert.equal(none.detail, 'q is not an argument of list_levels, which takes none.');
    // The arguments a tool takes still pass, and a prototype member is no argument name.
    const fine = (await rpc(app, era, request(3, 'tools/call', { name: 'get_tool', arguments: { slug: 'quizzy' } }))).messages[0];
    assert.equal(fine.error, undefined, JSON.stringify(fine));
    assert.equal(fine.result?.isError, undefined, JSON.stringify(fine).slice(0, 300));
    // The SDK drops an own `__proto__` key before the tool reads its arguments: the call is
    // answered as without it, and nothing reaches Object.prototype.
    const proto = (await rpc(app, era, request(4, 'tools/call', { name: 'get_tool', arguments: JSON.parse('{"slug":"quizzy","__proto__":{"x":1}}') }))).messages[0];
    assert.equal(proto.error, undefined, JSON.stringify(proto).slice(0, 300));
    assert.deepEqual(proto.result.structuredContent, fine.result.structuredContent);
    assert.equal(({} as { x?: unknown }).x, undefined);
  });
}

test('MCP (2025 batch) › a refused request in a batch is answered, and the others are still served', async (t) => {
  const { app } = await buildTestApp(t);
  const { messages } = await rpc(app, 'legacy', [request(1, 'tools/call', { name: 'constructor' }), request(2, 'tools/list', {})]);
  type Answer = { id: number; error?: { code: number }; result?: { tools: unknown[] } };
  const byId = new Map((messages as Answer[]).map((m) => [m.id, m]));
  assert.equal(byId.get(1)?.error?.code, -32602);
  assert.equal(byId.get(2)?.result?.tools.length, 8);
});
