import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { ConfigError, loadConfig } from '../../src/config.js';
import { formatProblem } from '../../src/content/content-problems.js';
import { loadContent } from '../../src/content/load-content.js';
import { API, buildTestApp } from '../helpers/build-app.js';
import { send } from '../helpers/http.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';

/** A real WebP of `width`×`height` and its 640-wide variant, named as `npm run screenshots` names them. */
async function screenshotFiles(slug: string, width = 1280, height = 800) {
  const full = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).webp().toBuffer();
  const small = await sharp(full).resize({ width: 640 }).webp().toBuffer();
  const file = `${slug}-${createHash('sha256').update(full).digest('hex').slice(0, 12)}.webp`;
  return { file, full, small, media: { [file]: full, [file.replace(/\.webp$/, '-640.webp')]: small } };
}

function datasetWithScreenshot(file: string) {
  const dataset = fixtureDataset();
  const tool = dataset.tools.find((t) => t.slug === 'quizzy')!;
  tool.screenshot = { file, alt: 'Page d’accueil de Quizzy', width: 1280, height: 800, captured_at: '2026-11-22T10:00:00Z' };
  tool.links_checked_at = '2026-11-22T09:00:00Z';
  tool.link_status = 'redirected';
  tool.link_redirects = { website_url: 'https://www.quizzy.example.org/fr/' };
  tool.last_verified_at = null;
  return dataset;
}

test('GET /tools/{slug} › a hosted screenshot has absolute URLs under /media/, its variant, and the link check', async (t) => {
  const shot = await screenshotFiles('quizzy');
  const { app } = await buildTestApp(t, { env: { PUBLIC_BASE_URL: 'https://api.example.org' }, dataset: datasetWithScreenshot(shot.file), media: shot.media });
  const { data } = (await app.inject({ url: `${API}/tools/quizzy` })).json();
  assert.deepEqual(data.screenshot, {
    url: `https://api.example.org/media/${shot.file}`,
    alt: 'Page d’accueil de Quizzy',
    width: 1280,
    height: 800,
    captured_at: '2026-11-22T10:00:00Z',
    variants: [{ url: `https://api.example.org/media/${shot.file.replace('.webp', '-640.webp')}`, width: 640, height: 400 }],
  });
  assert.equal(data.links_checked_at, '2026-11-22T09:00:00Z');
  assert.equal(data.link_status, 'redirected');
  assert.equal(data.freshness.last_verified_at, null);
  assert.ok(!('link_redirects' in data), 'the suggestion is for editors, not the public');

  const ndjson = (await app.inject({ url: `${API}/export/tools.ndjson` })).body.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.equal(ndjson.find((x: { slug: string }) => x.slug === 'quizzy').screenshot.url, data.screenshot.url);
});

test('GET /tools/{slug} › PUBLIC_MEDIA_URL puts screenshot URLs on a CDN', async (t) => {
  const shot = await screenshotFiles('quizzy');
  const { app } = await buildTestApp(t, { env: { PUBLIC_MEDIA_URL: 'https://cdn.example.net/annuaire/media/' }, dataset: datasetWithScreenshot(shot.file), media: shot.media });
  const { data } = (await app.inject({ url: `${API}/tools/quizzy` })).json();
  assert.equal(data.screenshot.url, `https://cdn.example.net/annuaire/media/${shot.file}`);
  assert.equal(data.screenshot.variants[0].url, `https://cdn.example.net/annuaire/media/${shot.file.replace('.webp', '-640.webp')}`);
});

test('GET /media/{file} › serves the WebP with immutable caching, a strong ETag and 304s; outside the rate limit', async (t) => {
  const shot = await screenshotFiles('quizzy');
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '2' }, dataset: datasetWithScreenshot(shot.file), media: shot.media });
  const res = await app.inject({ url: `/media/${shot.file}` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'image/webp');
  assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(Number(res.headers['content-length']), shot.full.length);
  assert.deepEqual(res.rawPayload, shot.full);
  const meta = await sharp(res.rawPayload).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 1280, 800]);
  const etag = res.headers.etag as string;
  assert.match(etag, /^"quizzy-[0-9a-f]{12}"$/);

  const again = await app.inject({ url: `/media/${shot.file}`, headers: { 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  const head = await app.inject({ method: 'HEAD', url: `/media/${shot.file.replace('.webp', '-640.webp')}` });
  assert.equal(head.statusCode, 200);
  assert.equal(Number(head.headers['content-length']), shot.small.length);
  // Five requests with a limit of two: images do not spend the API budget.
  for (let i = 0; i < 3; i++) assert.equal((await app.inject({ url: `/media/${shot.file}` })).statusCode, 200);
});

test('GET /media/{file} › on a real socket too (where the fast path counts requests), images are outside the rate limit', async (t) => {
  const shot = await screenshotFiles('quizzy');
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '2' }, dataset: datasetWithScreenshot(shot.file), media: shot.media });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  for (let i = 0; i < 5; i++) {
    const res = await send(port, `/media/${shot.file}`);
    assert.equal(res.status, 200, `request ${i + 1}`);
    assert.equal(res.headers['ratelimit-remaining'], undefined);
  }
  assert.equal((await send(port, `${API}/tools/quizzy`)).status, 200, 'the API budget is untouched');
});

test('GET /media/{file} › anything but a published screenshot name is a 404 problem', async (t) => {
  const { app, contentDir } = await buildTestApp(t);
  await mkdir(path.join(contentDir, 'media'), { recursive: true });
  await writeFile(path.join(contentDir, 'media', 'notes.txt'), 'private');
  for (const url of ['/media/notes.txt', '/media/..%2ftools%2fquizzy.yaml', '/media/quizzy-0123456789ab.webp', '/media/QUIZZY-0123456789ab.webp']) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 404, url);
    assert.match(res.headers['content-type'] as string, /^application\/problem\+json/, url);
  }
});

test('content › a screenshot naming a file missing from media/ is refused with the file and field', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const shot = await screenshotFiles('quizzy');
  const content = await writeContent(path.join(dir, 'content'), datasetWithScreenshot(shot.file));
  await mkdir(path.join(content, 'media'));
  await writeFile(path.join(content, 'media', shot.file), shot.full); // the 640 variant is missing
  const result = await loadContent(content);
  assert.equal(result.ok, false);
  const lines = !result.ok ? result.problems.map(formatProblem) : [];
  // (The collections naming the refused tool are reported too.)
  assert.equal(lines.filter((l) => l.includes('quizzy.yaml')).length, 1, lines.join('\n'));
  assert.match(lines[0]!, /tools\/quizzy\.yaml:\d+: record "quizzy", field screenshot\.file: names a file that is not in .*media\/ \(missing "quizzy-[0-9a-f]{12}-640\.webp"\)/);
});

test('content › link_status must be one the checker writes; last_verified_at may be null', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const dataset = fixtureDataset();
  dataset.tools[0]!.last_verified_at = null;
  (dataset.tools[1] as { link_status: string }).link_status = 'fine';
  const result = await loadContent(await writeContent(path.join(dir, 'content'), dataset));
  assert.equal(result.ok, false);
  const lines = !result.ok ? result.problems.map(formatProblem) : [];
  assert.equal(lines.filter((l) => l.includes('/tools/')).length, 1, lines.join('\n'));
  assert.match(lines[0]!, /quiz-master\.yaml:\d+: record "quiz-master", field link_status: must be one of ok, redirected, broken, unreachable, null \(got "fine"\)/);
});

test('config › PUBLIC_MEDIA_URL must be an http(s) base without query', () => {
  assert.equal(loadConfig({ PUBLIC_MEDIA_URL: 'https://cdn.example.net/m/' }).publicMediaUrl, 'https://cdn.example.net/m');
  assert.equal(loadConfig({}).publicMediaUrl, null);
  assert.throws(() => loadConfig({ PUBLIC_MEDIA_URL: 'ftp://cdn.example.net/' }), (e: Error) => e instanceof ConfigError && /PUBLIC_MEDIA_URL/.test(e.message));
  assert.throws(() => loadConfig({ PUBLIC_MEDIA_URL: 'https://cdn.example.net/?v=1' }), /without query/);
});
