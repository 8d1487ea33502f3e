import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { setFields, writeFileAtomically } from '../../src/content/tool-file-edits.js';
import { tempDir } from '../helpers/fixture.js';

const FILE = `# En-tête conservé
slug: outil   # le slug
short_description: >-
  Une description pliée sur deux lignes, que la réécriture ne doit pas
  replier autrement.
screenshot: null
last_verified_at: null
`;

test('setFields › replaces a value in place and adds missing fields after the anchor, nothing else moves', () => {
  const out = setFields(FILE, { screenshot: { file: 'outil-0123456789ab.webp', alt: 'Capture', width: 1280, height: 800, captured_at: '2026-11-23T03:00:00Z' }, link_status: 'ok' }, 'last_verified_at');
  assert.equal(
    out,
    `# En-tête conservé
slug: outil   # le slug
short_description: >-
  Une description pliée sur deux lignes, que la réécriture ne doit pas
  replier autrement.
screenshot:
  file: outil-0123456789ab.webp
  alt: Capture
  width: 1280
  height: 800
  captured_at: "2026-11-23T03:00:00Z"
last_verified_at: null
link_status: ok
`,
  );
  // Back to null, and a field removed with its lines.
  assert.equal(setFields(out, { screenshot: null, link_status: undefined }, 'last_verified_at'), FILE);
});

test('setFields › without the anchor, new fields go at the end; a file without a final newline gets one', () => {
  assert.equal(setFields('a: 1\nb: 2', { c: 'x' }, 'missing'), 'a: 1\nb: 2\nc: x\n');
});

test('setFields › refuses a file that is not a mapping or not YAML', () => {
  assert.throws(() => setFields('- a\n- b\n', { c: 1 }, 'a'), /not a YAML mapping/);
  assert.throws(() => setFields('a: [1\n', { c: 1 }, 'a'), /invalid YAML/);
});

test('writeFileAtomically › the whole file or the old one, and no temporary file left', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'outil.yaml');
  await writeFileAtomically(file, 'a: 1\n');
  await writeFileAtomically(file, 'a: 2\n');
  assert.equal(await readFile(file, 'utf8'), 'a: 2\n');
  await assert.rejects(writeFileAtomically(path.join(dir, 'missing-folder', 'x.yaml'), 'a: 1\n'));
  assert.deepEqual(await readdir(dir), ['outil.yaml']);
});
