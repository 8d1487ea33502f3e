/**
 * The OpenAPI document as a client generator and the reference page's « try it » use it:
 * a unique operationId on every operation, described tags, an example for every parameter
 * (a slug that exists, so « try it » on /tools/{slug} gets a 200), contact and licence.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';
import { bundledDataset } from '../helpers/fixture.js';

test('OpenAPI › operationIds, tag descriptions, an example for every parameter, contact and licence', async (t) => {
  const { app } = await buildTestApp(t);
  const doc = (await app.inject({ url: `${API}/openapi.json` })).json();
  assert.ok(doc.info.contact?.url && doc.info.license?.url);
  const ids: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string; tags?: string[]; parameters?: Array<{ name: string; example?: unknown; examples?: unknown; schema?: { examples?: unknown[]; example?: unknown } }> }>>)) {
    for (const [method, op] of Object.entries(operations)) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${method} ${path} has an operationId`);
      ids.push(op.operationId!);
      for (const p of op.parameters ?? []) {
        const example = p.example ?? p.examples ?? p.schema?.examples ?? p.schema?.example;
        assert.ok(example !== undefined, `${method} ${path}: ${p.name} has an example`);
      }
    }
  }
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  for (const tag of doc.tags) assert.ok(tag.description, `tag ${tag.name} is described`);
  // The example slugs are real: « try it » answers 200.
  const slugExample = (path: string) => {
    const p = doc.paths[path].get.parameters.find((x: { name: string }) => x.name === 'slug');
    return (p.example ?? p.schema?.examples?.[0]) as string;
  };
  assert.equal((await app.inject({ url: `${API}/collections/${slugExample('/api/v1/directory/collections/{slug}')}` })).statusCode, 200);
  assert.match(slugExample('/api/v1/directory/tools/{slug}'), /^[a-z0-9-]+$/);
});

/**
 * What the reference page's « try it » sends before anything is touched: a path parameter's
 * example, and an optional query parameter's default example (named `default`, else the
 * only one) unless it says `x-disabled: true`, else its schema's `default` — Scalar's rule.
 */
function defaultRequest(path: string, parameters: Array<{ in: string; name: string; required?: boolean; example?: unknown; examples?: Record<string, { value: unknown; 'x-disabled'?: boolean }>; schema?: { default?: unknown } }>): string {
  const query = new URLSearchParams();
  let url = path;
  for (const p of parameters) {
    const named = p.examples?.default ?? (p.example !== undefined ? { value: p.example } : undefined);
    const chosen = named ?? (p.schema?.default !== undefined ? { value: p.schema.default } : undefined);
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(chosen?.value)));
    else if (p.in === 'query' && chosen !== undefined && chosen['x-disabled'] !== true) query.append(p.name, String(chosen.value));
  }
  const search = query.toString();
  return search === '' ? url : `${url}?${search}`;
}

test('OpenAPI › the default request of every GET operation (« try it » untouched) answers 200 with something on the bundled directory: examples that cannot combine are off', async (t) => {
  const { app } = await buildTestApp(t, { dataset: await bundledDataset() });
  const doc = (await app.inject({ url: `${API}/openapi.json` })).json();
  const sent: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: Parameters<typeof defaultRequest>[1] }>>)) {
    const get = operations.get;
    if (get === undefined) continue;
    const url = defaultRequest(path, get.parameters ?? []);
    sent.push(url);
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 300)}`);
    assert.ok(res.body.length > 0, `${url} answers a body`);
    if (res.headers['content-type']?.toString().startsWith('application/json')) {
      const body = res.json();
      if (Array.isArray(body.data)) assert.ok(body.data.length > 0, `${url} answers a non-empty list: ${res.body.slice(0, 300)}`);
      if (Array.isArray(body.items)) assert.ok(body.items.length > 0, `${url} answers a non-empty feed`);
    }
  }
  // The list of tools is tried with a search that finds something, and nothing else switched on.
  assert.ok(sent.includes(`${API}/tools?q=quiz`), sent.join('\n'));
  assert.ok(sent.includes(`${API}/changes`), sent.join('\n'));
});
