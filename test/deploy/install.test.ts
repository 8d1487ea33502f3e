/**
 * The install (issue 48): on Node.js 22 and 24 nothing is compiled, on Node.js 20 better-sqlite3
 * 12 is, and an install whose SQLite driver does not load fails there, loudly, rather than at
 * the server's first start. CI runs these after its `npm ci` on each Node.js, so they check
 * that install. The image's trimming (scripts/slim-image.mjs) keeps what the server reads.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { DRIVER_PACKAGE } from '../../src/store/sqlite-driver.js';
import { tempDir } from '../helpers/fixture.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const require = createRequire(path.join(ROOT, 'package.json'));

test('install › npm runs no script of better-sqlite3, compiles 12 through the Node.js 20 switch, and checks the driver after every install', () => {
  // npm's allowScripts: a denied package's scripts, and the node-gyp rebuild npm adds for a
  // package with a binding.gyp, are skipped.
  assert.equal(pkg.allowScripts['better-sqlite3'], false);
  assert.equal(pkg.allowScripts['file:drivers/better-sqlite3-node20'], true);
  const driver = JSON.parse(readFileSync(path.join(ROOT, 'drivers/better-sqlite3-node20/package.json'), 'utf8'));
  assert.equal(driver.engines.node, '20.x');
  assert.equal(driver.scripts.install, 'node install.cjs');
  assert.equal(pkg.scripts.postinstall, 'node scripts/check-sqlite-driver.mjs');
  assert.ok(pkg.optionalDependencies['better-sqlite3'] && pkg.optionalDependencies['better-sqlite3-node20']);
});

test(`install › this node_modules (Node.js ${process.versions.node}): the driver was ${NODE_MAJOR >= 22 ? 'not compiled (its binary is the package\'s own)' : 'compiled at install'}`, () => {
  if (NODE_MAJOR >= 22) {
    const dir = path.dirname(require.resolve('better-sqlite3/package.json'));
    assert.match(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version, /^13\./);
    assert.equal(existsSync(path.join(dir, 'build')), false, `${dir}/build exists: the install ran node-gyp for better-sqlite3 13`);
    assert.ok(existsSync(path.join(dir, 'prebuilds', `${process.platform}-${process.arch}.node`)));
  } else {
    const from = createRequire(require.resolve('better-sqlite3-node20/package.json'));
    const dir = path.dirname(from.resolve('better-sqlite3/package.json'));
    assert.match(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version, /^12\./);
    assert.ok(existsSync(path.join(dir, 'build', 'Release', 'better_sqlite3.node')), 'better-sqlite3 12 was compiled');
  }
});

test('install › check-sqlite-driver passes here, naming the driver the store picks, and fails loudly where the driver is missing', async (t) => {
  const ok = spawnSync(process.execPath, ['scripts/check-sqlite-driver.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, new RegExp(`better-sqlite3 ${NODE_MAJOR >= 22 ? '13' : '12'}\\.\\d+\\.\\d+ \\(SQLite 3\\.\\d+\\.\\d+\\) loads on Node\\.js ${process.version}`));

  // The same script in an install without the driver (npm dropped it, or another Node.js).
  const bare = await tempDir('directory-nodriver-');
  t.after(() => rmSync(bare, { recursive: true, force: true }));
  mkdirSync(path.join(bare, 'scripts'));
  mkdirSync(path.join(bare, 'node_modules'));
  cpSync(path.join(ROOT, 'scripts/check-sqlite-driver.mjs'), path.join(bare, 'scripts/check-sqlite-driver.mjs'));
  writeFileSync(path.join(bare, 'package.json'), '{"name":"bare","private":true}');
  const missing = spawnSync(process.execPath, ['scripts/check-sqlite-driver.mjs'], { cwd: bare, encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, new RegExp(`FAILED: the SQLite driver for Node\\.js ${process.version.replace(/\./g, '\\.')} \\(${DRIVER_PACKAGE}\\) does not load`));
});

test('image › slim-image keeps what the server reads and removes sources, tests, maps and the screenshot tool', async (t) => {
  const app = await tempDir('directory-slim-');
  t.after(() => rmSync(app, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'dist/src/server.js': 'x',
    'dist/src/server.js.map': 'x',
    'dist/src/cli/import.js': 'x',
    'dist/src/cli/screenshots.js': 'x',
    'dist/src/publishing/screenshot-capture.js': 'x',
    'dist/test/a.test.js': 'x',
    'dist/bench/run.js': 'x',
    'node_modules/fastify/package.json': '{}',
    'node_modules/fastify/fastify.js': 'x',
    'node_modules/fastify/fastify.d.ts': 'x',
    'node_modules/fastify/README.md': 'x',
    'node_modules/fastify/LICENSE': 'x',
    'node_modules/fastify/LICENSE.md': 'x',
    'node_modules/fastify/test/a.test.js': 'x',
    'node_modules/fastify/lib/test/kept.js': 'x',
    'node_modules/@scope/pkg/test/a.js': 'x',
    'node_modules/@scope/pkg/src/index.ts': 'x',
    'node_modules/@scope/pkg/dist/index.js': 'x',
    'node_modules/a/node_modules/b/test/c.js': 'x',
    'node_modules/a/node_modules/b/index.js.map': 'x',
    'node_modules/a/node_modules/b/index.js': 'x',
    'node_modules/better-sqlite3/lib/index.js': 'x',
    'node_modules/better-sqlite3/prebuilds/linux-x64.node': 'x',
    'node_modules/better-sqlite3/prebuilds/linux-arm64.node': 'x',
    'node_modules/better-sqlite3/prebuilds/darwin-arm64.node': 'x',
    'node_modules/better-sqlite3/deps/sqlite3.c': 'x',
    'node_modules/better-sqlite3/src/addon.cpp': 'x',
    'node_modules/better-sqlite3/binding.gyp': 'x',
    'node_modules/node-addon-api/napi.h': 'x',
    'node_modules/simple-icons/index.js': 'x',
    'node_modules/simple-icons/index.mjs': 'x',
    'node_modules/simple-icons/data/simple-icons.json': '[]',
    'node_modules/simple-icons/icons/a.svg': 'x',
    'node_modules/playwright-core/index.js': 'x',
    'node_modules/sharp/lib/index.js': 'x',
    'node_modules/@img/sharp-linux-x64/lib/libvips.so': 'x',
  };
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
    writeFileSync(path.join(app, file), body);
  }
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/slim-image.mjs'), app], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const kept = Object.keys(files).filter((file) => existsSync(path.join(app, file)));
  const here = process.platform === 'linux' && process.arch === 'x64' ? ['node_modules/better-sqlite3/prebuilds/linux-x64.node'] : [];
  assert.deepEqual(kept, [
    'dist/src/server.js',
    'dist/src/cli/import.js',
    'node_modules/fastify/package.json',
    'node_modules/fastify/fastify.js',
    'node_modules/fastify/LICENSE',
    'node_modules/fastify/LICENSE.md',
    'node_modules/fastify/lib/test/kept.js',
    'node_modules/@scope/pkg/dist/index.js',
    'node_modules/a/node_modules/b/index.js',
    'node_modules/better-sqlite3/lib/index.js',
    ...here,
    'node_modules/simple-icons/index.js',
    'node_modules/simple-icons/data/simple-icons.json',
    'node_modules/simple-icons/icons/a.svg',
  ]);
});
