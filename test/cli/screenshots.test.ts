import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { setFields } from '../../src/content/tool-file-edits.js';
import { loadContent } from '../../src/content/load-content.js';
import { DEFAULT_CHROMIUM } from '../../src/publishing/screenshot-capture.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { closedPort, html, redirect, startHttpSite, startHttpsSite, TEST_CERT_SPKI } from '../helpers/fixture-sites.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/cli/screenshots.ts');
const CHROMIUM = process.env.CHROMIUM_PATH?.trim() || DEFAULT_CHROMIUM;
// CI installs Chromium (.ci/run): there a missing browser is a failure, not a skip.
const skip = !existsSync(CHROMIUM) && !process.env.CI ? `no Chromium at ${CHROMIUM} (apt-get install chromium): screenshot tests skipped` : false;

async function screenshots(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // The fixture site's self-signed certificate is accepted by its key's hash, and by nothing else.
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, `--browser-arg=--ignore-certificate-errors-spki-list=${TEST_CERT_SPKI}`, ...args], {
      env: { ...process.env, CONTENT_DIR: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * Red at load, then a counter ticking every 100 ms, green at the fifteenth tick (1.5 s):
 * later than the network going idle (0.5 s without requests), so a capture that waited for
 * the network alone would be red; only one that waits for the DOM to stop changing (0.5 s
 * without a change) is green.
 */
const LATE_PAGE = `<!doctype html><html><head><style>body{margin:0;background:rgb(220,0,0)}</style></head>
<body><h1>Chargement…</h1><script>let n = 0; const timer = setInterval(() => {
  n++; document.querySelector('h1').textContent = 'Étape ' + n;
  if (n === 15) { clearInterval(timer); document.body.style.background = 'rgb(0,160,0)'; }
}, 100);</script></body></html>`;

async function siteFixture(t: TestContext) {
  const site = await startHttpsSite(t, {
    '/late': html(LATE_PAGE),
    '/plain': html('<!doctype html><body style="margin:0;background:rgb(0,0,200)"><p>Bonjour</p></body>'),
    '/other': html('<!doctype html><body style="margin:0;background:#fff"><p>Autre</p></body>'),
    '/missing': html('<p>introuvable</p>', 404),
  });
  const refused = await closedPort();
  const dataset = fixtureDataset();
  const pages: Record<string, string> = { quizzy: '/late', 'quiz-master': '/plain', 'eleve-plus': '/missing', 'ecole-directe-test': '/other' };
  for (const tool of dataset.tools) tool.website_url = pages[tool.slug] ? `${site.origin}${pages[tool.slug]}` : `https://127.0.0.1:${refused}/${tool.slug}`;
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  // The local site and the closed port are loopback addresses: allowed by address and port, explicitly.
  const allow = [site.port, refused].flatMap((port) => ['--allow-address', `127.0.0.1:${port}`]);
  return { site, allow, content: await writeContent(path.join(dir, 'content'), dataset) };
}

test('screenshots CLI › --help explains itself; a missing browser is named', async () => {
  const help = await screenshots('--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: npm run screenshots/);
  assert.match(help.stdout, /--concurrency/);
  const dir = await tempDir();
  try {
    const content = await writeContent(path.join(dir, 'content'), fixtureDataset());
    const missing = await screenshots(content, '--chromium', '/nonexistent/chromium');
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /No Chromium at \/nonexistent\/chromium/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('screenshots CLI › captures a local page once settled, writes WebP + 640 variant, records it; the API serves it', { skip, timeout: 120_000 }, async (t) => {
  const { content, allow } = await siteFixture(t);
  const file = path.join(content, 'tools', 'quizzy.yaml');
  const original = `# Relue le 2 janvier.\n${await readFile(file, 'utf8')}`;
  await writeFile(file, original);

  const { code, stdout, stderr } = await screenshots(content, '--slug', 'quizzy', ...allow);
  assert.equal(code, 0, stdout + stderr);
  assert.match(stdout, /captured {2}quizzy {2}media\/quizzy-[0-9a-f]{12}\.webp \(1280×800, \d+ kB\)/);

  const written = await readFile(file, 'utf8');
  assert.match(written, /^# Relue le 2 janvier\.\n/);
  const loaded = await loadContent(content);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  const shot = loaded.dataset.tools.find((x) => x.slug === 'quizzy')!.screenshot!;
  assert.match(shot.file, /^quizzy-[0-9a-f]{12}\.webp$/);
  assert.deepEqual([shot.width, shot.height], [1280, 800]);
  assert.match(shot.alt, /^Capture d’écran du site de Quizzy \(127\.0\.0\.1:\d+\)$/);
  assert.ok(Math.abs(Date.parse(shot.captured_at) - Date.now()) < 120_000);

  const media = path.join(content, 'media');
  const full = await readFile(path.join(media, shot.file));
  const small = await readFile(path.join(media, shot.file.replace('.webp', '-640.webp')));
  const [fullMeta, smallMeta] = await Promise.all([sharp(full).metadata(), sharp(small).metadata()]);
  assert.deepEqual([fullMeta.format, fullMeta.width, fullMeta.height], ['webp', 1280, 800]);
  assert.deepEqual([smallMeta.format, smallMeta.width, smallMeta.height], ['webp', 640, 400]);
  // The page turned green after load: the capture waited for it.
  const { data } = await sharp(full).extract({ left: 600, top: 600, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  assert.ok(data[1]! > 120 && data[0]! < 60, `settled page captured (pixel ${[...data].join(',')})`);
  assert.deepEqual((await readdir(media)).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');

  // The API over that content: absolute URL, and the image with immutable caching.
  const { app } = await buildTestApp(t, {
    dataset: loaded.dataset,
    env: { PUBLIC_BASE_URL: 'https://api.example.org' },
    media: { [shot.file]: full, [shot.file.replace('.webp', '-640.webp')]: small },
  });
  const detail = (await app.inject({ url: `${API}/tools/quizzy` })).json().data;
  assert.equal(detail.screenshot.url, `https://api.example.org/media/${shot.file}`);
  const image = await app.inject({ url: `/media/${shot.file}` });
  assert.equal(image.statusCode, 200);
  assert.equal(image.headers['content-type'], 'image/webp');
  assert.equal(image.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.deepEqual(image.rawPayload, full);
});

test('screenshots CLI › a failing site is reported and skipped, the others recorded; by default only tools without a screenshot', { skip, timeout: 120_000 }, async (t) => {
  const { content, allow } = await siteFixture(t);
  const before = await readFile(path.join(content, 'tools', 'eleve-plus.yaml'), 'utf8');
  const first = await screenshots(content, '--slug', 'quiz-master', '--slug', 'eleve-plus', '--slug', 'eau-vive', '--concurrency', '2', '--timeout', '10', ...allow);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /captured {2}quiz-master /);
  assert.match(first.stdout, /FAILED {4}eleve-plus {2}https:\/\/127\.0\.0\.1:\d+\/missing: the page answered HTTP 404/);
  assert.match(first.stdout, /FAILED {4}eau-vive {2}https:\/\/127\.0\.0\.1:\d+\/eau-vive: connection refused/);
  assert.match(first.stdout, /1 captured, 2 failed\./);
  assert.equal(await readFile(path.join(content, 'tools', 'eleve-plus.yaml'), 'utf8'), before, 'a failed site leaves its file alone');

  // Give every tool but one a screenshot: a run without --slug or --all captures that one only.
  const loaded = await loadContent(content);
  assert.ok(loaded.ok);
  const existing = loaded.dataset.tools.find((x) => x.slug === 'quiz-master')!.screenshot!;
  for (const tool of loaded.dataset.tools) {
    if (tool.slug === 'ecole-directe-test' || tool.slug === 'quiz-master') continue;
    const file = path.join(content, 'tools', `${tool.slug}.yaml`);
    await writeFile(file, setFields(await readFile(file, 'utf8'), { screenshot: { ...existing } }, 'education_program'));
  }
  const second = await screenshots(content, ...allow);
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.deepEqual(second.stdout.split('\n').filter((l) => l.startsWith('captured')).map((l) => l.split(/\s+/)[1]), ['ecole-directe-test']);
  assert.ok((await loadContent(content)).ok);
});

test('screenshots CLI › a redirect to a loopback address, by number or by name, or a page loading from one, is refused before Chromium connects', { skip, timeout: 120_000 }, async (t) => {
  // The "internal" service: it must never see a request, navigation or subresource.
  const internal = await startHttpSite(t, { '/': html('<!doctype html><body style="background:rgb(200,0,0)">secret</body>'), '/pixel.png': html('x') });
  const site = await startHttpsSite(t, {
    '/to-loopback': redirect(`http://127.0.0.1:${internal.port}/`, 302),
    '/to-localhost': redirect(`http://localhost:${internal.port}/`, 302),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/', 302),
    '/hop': (req, res) => res.writeHead(302, { location: `/hop?n=${Number(new URL(req.url!, 'http://x').searchParams.get('n')) + 1}` }).end(),
    '/loads-internal': html(`<!doctype html><body style="margin:0;background:#fff"><img src="http://127.0.0.1:${internal.port}/pixel.png"><iframe src="http://localhost:${internal.port}/"></iframe></body>`),
  });
  const dataset = fixtureDataset();
  const pages: Record<string, string> = { quizzy: '/to-loopback', 'quiz-master': '/to-localhost', 'eleve-plus': '/to-metadata', 'ecole-directe-test': '/loads-internal', 'atelier-quiz': '/hop?n=0' };
  for (const tool of dataset.tools) tool.website_url = pages[tool.slug] ? `${site.origin}${pages[tool.slug]}` : `https://127.0.0.1:${internal.port}/${tool.slug}`;
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), dataset);

  const run = await screenshots(content, '--all', '--concurrency', '2', '--timeout', '10', '--allow-address', `127.0.0.1:${site.port}`);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /FAILED {4}quizzy {2}\S+: redirect refused: 127\.0\.0\.1 is loopback, not a public address/);
  assert.match(run.stdout, /FAILED {4}quiz-master {2}\S+: redirect refused: localhost resolves to (127\.0\.0\.1|::1) is loopback/);
  assert.match(run.stdout, /FAILED {4}eleve-plus {2}\S+: redirect refused: 169\.254\.169\.254 is link-local/);
  assert.match(run.stdout, /FAILED {4}eau-vive {2}\S+: refused: 127\.0\.0\.1 is loopback/, 'the first URL is checked too');
  assert.match(run.stdout, /captured {2}ecole-directe-test /, 'a page is captured without what it may not load');
  assert.match(run.stdout, /FAILED {4}atelier-quiz {2}\S+: refused: more than 10 redirects/);
  const hops = site.log.filter((r) => r.path === '/hop').length;
  assert.equal(hops, 11, `the first request and its ten redirects, the eleventh refused before it is sent (${hops} requests)`);
  assert.deepEqual(internal.log, [], 'nothing reached the internal service');
  const loaded = await loadContent(content);
  assert.ok(loaded.ok);
  assert.deepEqual(loaded.dataset.tools.filter((x) => x.screenshot !== null).map((x) => x.slug), ['ecole-directe-test']);
});
