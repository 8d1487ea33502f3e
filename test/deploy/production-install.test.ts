/**
 * A production install (`npm ci --omit=dev` after `npm run build`, as the container image
 * does) starts and serves: the built server imports no dev dependency, `prestart` does not
 * need the TypeScript compiler, and the runtime files the image copies are enough. The
 * install is laid out as in the image (dist/, package.json, src/pages, content) with a
 * node_modules holding only the production dependencies (`npm ls --omit=dev`), linked from
 * this clone's: installing them again would need the network.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers/fixture.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

test('production install › built once, only production dependencies, no compiler: prestart passes, the server serves the API and the catalogue, exits 0 on SIGTERM', { timeout: 240_000 }, async (t) => {
  const app = await tempDir('directory-prod-');
  t.after(() => rmSync(app, { recursive: true, force: true }));
  // npm run build, into the install's own dist/.
  const build = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json', '--outDir', path.join(app, 'dist')], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stdout + build.stderr);

  // node_modules: the production dependencies' top-level folders, nothing else.
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8' });
  const top = ls.stdout
    .split('\n')
    .map((line) => path.relative(path.join(ROOT, 'node_modules'), line.trim()))
    .filter((rel) => rel !== '' && !rel.startsWith('..') && !rel.includes(`${path.sep}node_modules${path.sep}`) && !path.isAbsolute(rel));
  assert.ok(top.includes('fastify') && !top.includes('typescript') && !top.includes('tsx'), `production dependencies: ${top.join(', ')}`);
  for (const name of top) {
    mkdirSync(path.dirname(path.join(app, 'node_modules', name)), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(app, 'node_modules', name), 'dir');
  }
  // What the image copies besides dist/ and node_modules/ (Dockerfile, "run" stage).
  for (const file of ['package.json', 'LICENSE', 'scripts/prestart.mjs']) cpSync(path.join(ROOT, file), path.join(app, file), { recursive: true });
  cpSync(path.join(ROOT, 'src', 'pages'), path.join(app, 'src', 'pages'), { recursive: true });
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  assert.match(dockerfile, /COPY src\/pages src\/pages/, 'the image copies the page templates this test copies');
  assert.equal(existsSync(path.join(app, 'node_modules', '.bin', 'tsc')), false);

  // npm start's prestart: no compiler here, so it checks the build is there.
  const prestart = spawnSync(process.execPath, ['scripts/prestart.mjs'], { cwd: app, encoding: 'utf8' });
  assert.equal(prestart.status, 0, prestart.stdout + prestart.stderr);

  const port = await freePort();
  const server = spawn(process.execPath, ['dist/src/server.js'], {
    cwd: app,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: path.join(app, 'directory.sqlite'), CONTENT_DIR: path.join(ROOT, 'content'), REDIS_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  t.after(() => server.kill('SIGKILL'));

  const base = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 300 && !ready && server.exitCode === null; i++) {
    ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(ready, `the server never got ready:\n${output}`);
  const tools = await fetch(`${base}/api/v1/directory/tools?per_page=1&level=college`);
  assert.equal(tools.status, 200);
  assert.equal(((await tools.json()) as { data: unknown[] }).data.length, 1);
  const home = await fetch(`${base}/outils?q=quiz`);
  assert.equal(home.status, 200);
  assert.match(await home.text(), /<html lang="fr"/);
  server.kill('SIGTERM');
  assert.equal(await exited, 0, output);
});
