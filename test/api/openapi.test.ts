/**
 * The OpenAPI document as a client generator and the reference page's « try it » use it:
 * a unique operationId on every operation, described tags, an example for every parameter
 * (a slug that exists, so « try it » on /tools/{slug} gets a 200), contact and licence.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, buildTestApp } from '../helpers/build-app.js';

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
