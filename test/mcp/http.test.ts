import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';
import { ERAS, connectClient, structured } from '../helpers/mcp-client.js';

const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const toolsList = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

/** The JSON-RPC message of an answer, whether sent as JSON or as one SSE event (2025-era). */
function message(body: string) {
  const data = body.startsWith('event:') || body.startsWith('data:') ? body.split('\n').find((l) => l.startsWith('data: '))!.slice(6) : body;
  return JSON.parse(data);
}

test('POST /mcp › stateless: GET and DELETE are 405 with Allow, and CORS like the API', async (t) => {
  const { app } = await buildTestApp(t);
  for (const method of ['GET', 'DELETE'] as const) {
    const res = await app.inject({ method, url: '/mcp', headers: { accept: 'text/event-stream' } });
    assert.equal(res.statusCode, 405, method);
    assert.equal(res.headers.allow, 'POST, OPTIONS');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.json().error.code, -32000);
  }
  const preflight = await app.inject({ method: 'OPTIONS', url: '/mcp', headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' } });
  assert.equal(preflight.statusCode, 204);
  assert.equal(preflight.headers['access-control-allow-methods'], 'POST, OPTIONS');
  for (const header of ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name']) {
    assert.ok(String(preflight.headers['access-control-allow-headers']).includes(header), header);
  }
  const answer = await app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_RPC, origin: 'https://app.example.org' }, payload: toolsList(1) });
  assert.equal(answer.statusCode, 200);
  assert.equal(answer.headers['access-control-allow-origin'], '*');
  assert.equal(answer.headers['x-accel-buffering'], 'no', 'a 2025-era answer is SSE that nothing may buffer');
  assert.equal(message(answer.body).result.tools.length, 8);
});

test('POST /mcp › malformed JSON-RPC gets a JSON-RPC error, an oversized body 413, never a 500', async (t) => {
  const { app } = await buildTestApp(t);
  const parse = await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: '{"jsonrpc": "2.0", "id": 1, "method": ' });
  assert.equal(parse.statusCode, 400);
  assert.equal(parse.json().error.code, -32700);
  const big = await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(100_000) } }) });
  assert.equal(big.statusCode, 413);
  assert.equal(big.json().error.code, -32600);
  const payloads = ['[]', '"text"', '42', 'null', '{}', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":1,"method":"nope"}', '{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{"name":"get_tool","arguments":{"slug":"__proto__"}}}'];
  for (const payload of payloads) {
    const res = await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload });
    assert.ok(res.statusCode < 500, `${payload}: ${res.statusCode} ${res.body}`);
  }
  const text = await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'text/plain' }, payload: toolsList(1) });
  assert.ok(text.statusCode >= 400 && text.statusCode < 500, `text/plain: ${text.statusCode}`);
});

test('POST /mcp › MCP_ALLOWED_ORIGINS refuses other origins with a 403; requests without Origin pass', async (t) => {
  const { app } = await buildTestApp(t, { env: { MCP_ALLOWED_ORIGINS: 'https://agent.example.com,http://localhost:6274' } });
  const refused = await app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_RPC, origin: 'https://evil.example' }, payload: toolsList(1) });
  assert.equal(refused.statusCode, 403);
  assert.match(refused.json().error.message, /evil\.example/);
  assert.equal((await app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_RPC, origin: 'null' }, payload: toolsList(2) })).statusCode, 403);
  assert.equal((await app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_RPC, origin: 'https://agent.example.com' }, payload: toolsList(3) })).statusCode, 200);
  assert.equal((await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: toolsList(4) })).statusCode, 200);
  // The same refusal reaches the SDK client.
  await assert.rejects(connectClient(t, app, { era: 'auto', headers: { origin: 'https://evil.example' } }));
});

test('POST /mcp › any Origin is served by default', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_RPC, origin: 'https://any.example' }, payload: toolsList(1) });
  assert.equal(res.statusCode, 200);
});

test('POST /mcp › rate limited by the API rule in its own bucket: one count per JSON-RPC request, REST still answers', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '60' } });
  // A notification is a POST like any other: it is counted.
  const note = await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.ok(note.statusCode < 300, `notification: ${note.statusCode}`);
  assert.equal(note.headers['ratelimit-remaining'], '4');
  for (let i = 1; i <= 4; i++) {
    const res = await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: toolsList(i) });
    assert.equal(res.statusCode, 200, `request ${i}`);
    assert.equal(res.headers['ratelimit-remaining'], String(4 - i));
  }
  const refused = await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: toolsList(5) });
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.headers['cache-control'], 'no-store');
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  assert.equal(refused.json().error.code, -32000);
  assert.match(refused.json().error.message, /Limite de 5 requêtes par 60 secondes/, 'French by default, as REST problems');
  const english = await app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_RPC, 'accept-language': 'en' }, payload: toolsList(7) });
  assert.match(english.json().error.message, /Limit of 5 requests per 60 seconds/);
  // The same client's REST budget is untouched.
  const restAnswer = await app.inject({ url: `${API}/tools` });
  assert.equal(restAnswer.statusCode, 200);
  assert.equal(restAnswer.headers['ratelimit-remaining'], '4');
  // And REST requests do not spend the MCP budget: it is still exhausted, not reset.
  assert.equal((await app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: toolsList(6) })).statusCode, 429);
});

test('POST /mcp › every POST counts, whatever it holds: notifications, batches of them, oversized and unreadable bodies', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_S: '60' } });
  const post = (payload: string) => app.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload });
  const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const answers = [
    await post(note),
    await post(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }])),
    // A notification is bounded like any message: refused past 64 KiB, and counted all the same.
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized', params: { pad: 'x'.repeat(100_000) } })),
    await post('{"jsonrpc": "2.0", "method": '),
    await post(note),
    await post(note),
  ];
  assert.deepEqual(answers.map((a) => a.statusCode), [202, 202, 413, 400, 202, 202]);
  assert.deepEqual(answers.map((a) => a.headers['ratelimit-remaining']), ['5', '4', '3', '2', '1', '0']);
  const refused = await post(note);
  assert.equal(refused.statusCode, 429, 'the seventh POST in the window is refused');
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  // A batch of requests still counts each of them.
  const { app: other } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_S: '60' } });
  const batch = await other.inject({ method: 'POST', url: '/mcp', headers: JSON_RPC, payload: JSON.stringify([1, 2, 3].map((id) => JSON.parse(toolsList(id)))) });
  assert.equal(batch.headers['ratelimit-remaining'], '3');
});

test('POST /mcp › the SDK client sees the 429 once the budget is spent', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '6' } });
  const client = await connectClient(t, app, { era: 'auto' });
  let refused: unknown = null;
  for (let i = 0; i < 10 && refused === null; i++) {
    await client.callTool({ name: 'list_categories', arguments: {} }).catch((err: unknown) => (refused = err));
  }
  assert.ok(refused !== null, 'a call is refused within the budget');
  assert.match(String(refused), /429|Limite de 6/);
  assert.equal((await app.inject({ url: `${API}/categories` })).statusCode, 200, 'REST still answers');
});

for (const era of ERAS) {
  test(`POST /mcp › through a listening server (${era}): links use the request's host`, async (t) => {
    const { app } = await buildTestApp(t);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const client = await connectClient(t, app, { era, port });
    const body = structured(await client.callTool({ name: 'search_tools', arguments: { q: 'quiz', per_page: 2 } })) as { data: Array<{ links: { self: string } }>; links: { next: string } };
    assert.equal(body.data.length, 2);
    assert.ok(body.data[0]!.links.self.startsWith(`http://127.0.0.1:${port}${API}/tools/`), body.data[0]!.links.self);
    const next = await fetch(body.links.next);
    assert.equal(next.status, 200, 'the next link is a working REST URL');
    const tool = structured(await client.callTool({ name: 'get_tool', arguments: { slug: 'quizzy' } })) as { data: { slug: string } };
    assert.equal(tool.data.slug, 'quizzy');
  });
}
