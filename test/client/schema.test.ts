/** The client's generated types are those of the server's current OpenAPI document. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from '../../scripts/client-types.js';

test('packages/client/src/schema.ts › is what `npm run generate:client` makes from the OpenAPI document (regenerate after a schema change)', async () => {
  assert.equal(await readFile(CLIENT_SCHEMA_FILE, 'utf8'), await clientSchemaSource());
});
