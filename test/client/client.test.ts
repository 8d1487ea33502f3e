/**
 * The typed client (packages/client) against the real server, listening on a socket: the
 * iterator against the REST pages, 429 and Retry-After, ETag revalidation, problems.
 * Type-checked by `tsc` with the rest of the suite.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { createClient, ProblemError, retryAfterMs, type ClientOptions, type Tool, type ToolSummary } from '../../packages/client/src/index.js';
import { API, buildTestApp, type TestAppOptions } from '../helpers/build-app.js';

async function listening(t: TestContext, options: TestAppOptions = {}) {
  const built = await buildTestApp(t, options);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as { port: number };
  return { ...built, baseUrl: `http://127.0.0.1:${port}` };
}

/** A fetch that records what each request got. */
function recordingFetch() {
  const seen: Array<{ url: string; status: number; ifNoneMatch: string | undefined }> = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    seen.push({ url: String(input), status: response.status, ifNoneMatch: headers['if-none-match'] });
    return response;
  };
  return { seen, fetchImpl };
}

function client(baseUrl: string, options: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl, ...options });
}

test('client › tools() walked to the end equals the REST pages, in order, each tool once', async (t) => {
  const { baseUrl } = await listening(t);
  const { seen, fetchImpl } = recordingFetch();
  const api = client(baseUrl, { fetch: fetchImpl });
  const walked: ToolSummary[] = [];
  for await (const tool of api.tools({ q: 'quiz', per_page: 1 })) walked.push(tool);

  const rest: ToolSummary[] = [];
  for (let page = 1; ; page++) {
    const body = await (await fetch(`${baseUrl}${API}/tools?q=quiz&per_page=1&page=${page}`)).json();
    if (body.data.length === 0) break;
    rest.push(...body.data);
  }
  assert.ok(rest.length >= 2, `the fixture has several quiz tools (${rest.length})`);
  assert.deepEqual(walked, rest);
  assert.equal(new Set(walked.map((tool) => tool.slug)).size, walked.length);
  assert.equal(seen.length, rest.length, 'one request per page, none past the last');

  // Without a query: every published tool, across pages of 2, like per_page=100 in one.
  const all: string[] = [];
  for await (const tool of api.tools({ per_page: 2 })) all.push(tool.slug);
  const one = await api.listTools({ per_page: 100 });
  assert.deepEqual(all, one.data.map((tool) => tool.slug));
  assert.equal(all.length, one.meta.total);

  // Breaking out of the loop stops the requests.
  const before = seen.length;
  for await (const tool of api.tools({ per_page: 1 })) if (tool) break;
  assert.equal(seen.length, before + 1);
});

test('client › listTools, getTool, listCollections, getCollection, listCategories return the API bodies, typed', async (t) => {
  const { baseUrl } = await listening(t);
  const api = client(baseUrl);
  const list = await api.listTools({ pricing: ['free', 'freemium'], has_education_pricing: true, sort: 'name', page: 1, per_page: 5 });
  assert.ok(list.data.length > 0);
  for (const tool of list.data) {
    assert.ok(['free', 'freemium'].includes(tool.pricing));
    assert.equal(tool.has_education_pricing, true);
  }
  assert.equal(list.meta.per_page, 5);
  const rest = await (await fetch(`${baseUrl}${API}/tools?pricing=free,freemium&has_education_pricing=true&sort=name&page=1&per_page=5`)).json();
  assert.deepEqual(list, rest);

  const detail: { data: Tool } = await api.getTool(list.data[0]!.slug);
  assert.equal(detail.data.slug, list.data[0]!.slug);
  assert.equal(typeof detail.data.long_description, 'string');

  const collections = await api.listCollections();
  assert.ok(collections.data.length > 0);
  const collection = await api.getCollection(collections.data[0]!.slug);
  assert.equal(collection.data.slug, collections.data[0]!.slug);
  assert.ok(Array.isArray(collection.data.tools));
  assert.deepEqual(await api.listCollections({ kind: 'top' }), await (await fetch(`${baseUrl}${API}/collections?kind=top`)).json());

  const categories = await api.listCategories();
  assert.deepEqual(categories, await (await fetch(`${baseUrl}${API}/categories`)).json());
});

test('client › a 429 is waited out for its Retry-After, then the request succeeds; retries are bounded', async (t) => {
  const { baseUrl } = await listening(t, { env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_S: '1' } });
  const { seen, fetchImpl } = recordingFetch();
  const api = client(baseUrl, { fetch: fetchImpl, cacheSize: 0 });
  await api.listCategories();
  await api.listCategories();
  const started = performance.now();
  const third = await api.listCategories();
  const waited = performance.now() - started;
  assert.ok(third.data.length > 0);
  assert.deepEqual(seen.map((s) => s.status), [200, 200, 429, 200]);
  assert.ok(waited >= 900, `waited ${Math.round(waited)} ms, as Retry-After asked (1 s)`);

  // With no retry allowed, the 429 is a ProblemError carrying Retry-After.
  const impatient = client(baseUrl, { maxRetries: 0, cacheSize: 0 });
  await impatient.listCategories();
  await impatient.listCategories().catch(() => undefined);
  const error = await impatient.listCategories().then(
    () => assert.fail('expected a 429'),
    (err: unknown) => err,
  );
  assert.ok(error instanceof ProblemError);
  assert.equal(error.status, 429);
  assert.match(error.type, /\/problems\/rate-limited$/);
  assert.ok(error.retryAfter !== undefined && error.retryAfter >= 1);

  // A wait longer than allowed is not slept through.
  const hurried = client(baseUrl, { maxRetryDelayMs: 10, cacheSize: 0 });
  const t0 = performance.now();
  const results = await Promise.allSettled([hurried.listCategories(), hurried.listCategories(), hurried.listCategories()]);
  assert.ok(results.some((r) => r.status === 'rejected' && r.reason instanceof ProblemError && r.reason.status === 429));
  assert.ok(performance.now() - t0 < 900);
});

test('client › Retry-After as seconds or as an HTTP date', () => {
  assert.equal(retryAfterMs('3'), 3000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')), 5000);
  assert.equal(retryAfterMs(null), undefined);
  assert.equal(retryAfterMs('soon'), undefined);
});

test('client › a repeated request sends If-None-Match and a 304 returns the kept body', async (t) => {
  const { baseUrl } = await listening(t);
  const { seen, fetchImpl } = recordingFetch();
  const api = client(baseUrl, { fetch: fetchImpl });
  const first = await api.getTool('quizzy');
  const second = await api.getTool('quizzy');
  assert.deepEqual(second, first);
  assert.equal(seen.length, 2);
  assert.equal(seen[0]!.status, 200);
  assert.equal(seen[0]!.ifNoneMatch, undefined);
  assert.equal(seen[1]!.status, 304);
  assert.match(seen[1]!.ifNoneMatch!, /^W\/"/);
  // Lists too; with the cache off, no validator is sent.
  await api.listTools({ q: 'quiz' });
  await api.listTools({ q: 'quiz' });
  assert.equal(seen.at(-1)!.status, 304);
  const uncached = recordingFetch();
  const plain = client(baseUrl, { fetch: uncached.fetchImpl, cacheSize: 0 });
  await plain.getTool('quizzy');
  await plain.getTool('quizzy');
  assert.deepEqual(uncached.seen.map((s) => [s.status, s.ifNoneMatch]), [[200, undefined], [200, undefined]]);
});

test('client › problems are ProblemError: an unknown slug with suggestions, a bad parameter with its errors', async (t) => {
  const { baseUrl } = await listening(t);
  const api = client(baseUrl);
  const notFound = await api.getTool('quizy').then(() => assert.fail('expected a 404'), (err: unknown) => err);
  assert.ok(notFound instanceof ProblemError);
  assert.equal(notFound.status, 404);
  assert.match(notFound.type, /\/problems\/not-found$/);
  assert.equal(typeof notFound.title, 'string');
  assert.ok(notFound.suggestions?.includes('quizzy'), `suggestions: ${JSON.stringify(notFound.suggestions)}`);
  assert.equal(notFound.problem.status, 404);

  const missing = await api.getCollection('nothing-here').then(() => assert.fail('expected a 404'), (err: unknown) => err);
  assert.ok(missing instanceof ProblemError && missing.status === 404);

  const bad = await api.listTools({ pricing: 'fremium', per_page: 0 }).then(() => assert.fail('expected a 400'), (err: unknown) => err);
  assert.ok(bad instanceof ProblemError);
  assert.equal(bad.status, 400);
  assert.match(bad.type, /\/problems\/invalid-parameter$/);
  const byParameter = Object.fromEntries((bad.errors ?? []).map((e) => [e.parameter, e]));
  assert.equal(byParameter.pricing?.suggestion, 'freemium');
  assert.equal(byParameter.per_page?.value, '0');
  assert.ok(bad.detail);
  assert.match(bad.message, /^400 /);
});

test('client › a refusal that is not a problem body still becomes a ProblemError', async () => {
  const api = client('http://127.0.0.1:9', { fetch: async () => new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' }) });
  const error = await api.listCategories().then(() => assert.fail('expected a 502'), (err: unknown) => err);
  assert.ok(error instanceof ProblemError);
  assert.equal(error.status, 502);
  assert.equal(error.type, 'about:blank');
  assert.equal(error.title, 'Bad Gateway');
});
