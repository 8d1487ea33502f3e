/**
 * `npm start`'s prestart in a clone: it builds when a source is newer than the build, and not
 * otherwise (a second start does not wait for the compiler). Driven through the script itself,
 * with a stand-in compiler that records each run and writes the build.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers/fixture.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('prestart › builds when a source is newer than the build, starts at once when none is', async () => {
  const app = await tempDir();
  mkdirSync(path.join(app, 'scripts'));
  cpSync(path.join(ROOT, 'scripts', 'prestart.mjs'), path.join(app, 'scripts', 'prestart.mjs'));
  writeFileSync(path.join(app, 'tsconfig.json'), '{}');
  mkdirSync(path.join(app, 'src', 'http'), { recursive: true });
  writeFileSync(path.join(app, 'src', 'http', 'a.ts'), 'export const a = 1;\n');
  // The stand-in compiler: counts its runs and writes dist/src/server.js, as tsc would.
  mkdirSync(path.join(app, 'node_modules', '.bin'), { recursive: true });
  const tsc = path.join(app, 'node_modules', '.bin', 'tsc');
  writeFileSync(tsc, '#!/bin/sh\necho run >> runs.txt\nmkdir -p dist/src && touch dist/src/server.js\n');
  chmodSync(tsc, 0o755);
  const start = () => spawnSync(process.execPath, ['scripts/prestart.mjs'], { cwd: app, encoding: 'utf8' });
  const runs = () => (existsSync(path.join(app, 'runs.txt')) ? readFileSync(path.join(app, 'runs.txt'), 'utf8').trim().split('\n').length : 0);

  assert.equal(start().status, 0);
  assert.equal(runs(), 1, 'no build yet: it builds');
  const again = start();
  assert.equal(again.status, 0);
  assert.equal(runs(), 1, 'nothing changed: no build');
  assert.match(again.stdout, /not rebuilding/);
  // A source edited after the build: built again.
  const later = new Date(Date.now() + 5_000);
  utimesSync(path.join(app, 'src', 'http', 'a.ts'), later, later);
  assert.equal(start().status, 0);
  assert.equal(runs(), 2, 'a newer source: it builds');
});
