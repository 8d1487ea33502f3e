import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { importContent } from '../../src/content/import-content.js';
import { loadContent } from '../../src/content/load-content.js';
import { retryAfterMs } from '../../src/publishing/link-checker.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { closedPort, html, redirect, startHttpSite, startHttpsSite, TEST_CERT_FILE, type Route } from '../helpers/fixture-sites.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/cli/check-links.ts');

async function checkLinks(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: TEST_CERT_FILE, CONTENT_DIR: '', PUBLISHER_URL: 'https://editeur.example.org/annuaire' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Answers 429 with Retry-After: 1 the first time, then 200. */
const busyOnce: Route = (req, res, log) => {
  const seen = log.filter((r) => r.path === '/busy').length;
  if (seen === 1) res.writeHead(429, { 'retry-after': '1' }).end();
  else html('<p>ok</p>')(req, res, log);
};

/** The fixture's tools, each pointed at one behaviour of the local sites. */
async function linkFixture(t: TestContext) {
  const site = await startHttpsSite(t, {
    '/ok': html('<p>ok</p>'),
    '/ok-draft': html('<p>ok</p>'),
    '/moved': redirect('/step', 301),
    '/step': redirect('/final', 302),
    '/final': html('<p>final</p>'),
    '/gone': html('<p>gone</p>', 404),
    '/busy': busyOnce,
    '/slow': () => {}, // never answers
    '/loop': redirect('/loop', 302),
    '/no-head': (req, res) => (req.method === 'HEAD' ? res.writeHead(405).end() : html('<p>ok</p>')(req, res, [])),
  });
  const plain = await startHttpSite(t, {});
  const refused = await closedPort();
  // The local sites are loopback addresses: let them through, by address and port, and nothing else.
  const allow = [site.port, plain.port, refused].flatMap((port) => ['--allow-address', `127.0.0.1:${port}`]);
  const dataset = fixtureDataset();
  const urls: Record<string, string> = {
    quizzy: `${site.origin}/ok`,
    'quiz-master': `${site.origin}/moved`,
    'eleve-plus': `${site.origin}/busy`,
    'oeuvre-studio': `${site.origin}/slow`,
    'eau-vive': `https://127.0.0.1:${refused}/`,
    'ecrire-mieux': `https://127.0.0.1:${plain.port}/`,
    'zebre-math': `${site.origin}/loop`,
    'atelier-quiz': `${site.origin}/no-head`,
    brouillon: `${site.origin}/ok-draft`,
    'ecole-directe-test': `${site.origin}/final`,
  };
  for (const tool of dataset.tools) tool.website_url = urls[tool.slug]!;
  dataset.tools.find((x) => x.slug === 'eleve-plus')!.pricing.url = `${site.origin}/gone`;
  const quizzy = dataset.tools.find((x) => x.slug === 'quizzy')!;
  quizzy.education_program = { ...quizzy.education_program!, url: `${site.origin}/no-head` };
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), dataset);
  return { site, content, dataset, allow };
}

test('check-links CLI › --help explains itself; bad options are usage errors', async () => {
  const help = await checkLinks('--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: npm run check-links/);
  assert.match(help.stdout, /--write/);
  assert.match(help.stdout, /Exit codes/);
  const bad = await checkLinks('--timeout', 'Infinity');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--timeout must be a whole number/);
});

test('check-links CLI › each status from local sites; --write records it, keeping comments, and the content still imports', async (t) => {
  const { site, content, allow } = await linkFixture(t);
  const masterFile = path.join(content, 'tools', 'quiz-master.yaml');
  const original = `# Fiche relue à la main.\n${(await readFile(masterFile, 'utf8')).replace('name: Quiz Master', 'name: Quiz Master   # nom commercial')}`;
  await writeFile(masterFile, original);

  const started = Date.now();
  const { code, stdout, stderr } = await checkLinks(content, '--json', '--write', '--timeout', '2', '--retries', '2', ...allow);
  assert.equal(code, 1, `something is broken: exit 1\n${stderr}`);
  const report = JSON.parse(stdout) as { checked_at: string; summary: Record<string, number>; tools: Array<{ slug: string; status: string; links: Array<Record<string, unknown>> }> };
  const tool = (slug: string) => report.tools.find((x) => x.slug === slug)!;
  const link = (slug: string, field = 'website_url') => tool(slug).links.find((l) => l.field === field)!;

  assert.equal(tool('quizzy').status, 'ok');
  assert.equal(link('quizzy', 'education_program.url').status, 'ok', 'HEAD refused with 405, GET answers');
  assert.equal(tool('atelier-quiz').status, 'ok');
  assert.equal(link('atelier-quiz').requests, 2, 'HEAD, then GET');

  assert.equal(tool('quiz-master').status, 'redirected');
  assert.equal(link('quiz-master').final_url, `${site.origin}/final`);
  assert.deepEqual(link('quiz-master').redirects, [{ url: `${site.origin}/moved`, status: 301 }, { url: `${site.origin}/step`, status: 302 }]);

  assert.equal(link('eleve-plus').status, 'ok', '429 then 200 after Retry-After');
  assert.equal(link('eleve-plus').requests, 2);
  const busy = site.log.filter((r) => r.path === '/busy');
  assert.ok(busy[1]!.at - busy[0]!.at >= 950, `waited Retry-After: ${busy[1]!.at - busy[0]!.at} ms`);
  assert.deepEqual([link('eleve-plus', 'pricing.url').status, link('eleve-plus', 'pricing.url').http_status], ['broken', 404]);
  assert.equal(tool('eleve-plus').status, 'broken', 'a tool is as bad as its worst link');

  assert.deepEqual([link('oeuvre-studio').status, link('oeuvre-studio').error], ['unreachable', 'no answer within 2 s']);
  assert.deepEqual([link('eau-vive').status, link('eau-vive').error], ['unreachable', 'connection refused']);
  assert.equal(link('ecrire-mieux').status, 'unreachable');
  assert.match(link('ecrire-mieux').error as string, /TLS|SSL/i);
  assert.equal(link('zebre-math').status, 'broken');
  assert.match(link('zebre-math').error as string, /loop/);
  assert.equal(tool('brouillon').status, 'ok', 'drafts are checked too: they will be published');
  assert.deepEqual(report.summary, { ok: 6, redirected: 1, broken: 2, unreachable: 3 });
  assert.ok(Date.now() - started < 20_000);

  // A clear User-Agent on every request, and never more than two at once on the host.
  assert.ok(site.log.every((r) => /^annuaire-ia-edu-link-checker\/1\.0 \(\+https:\/\/editeur\.example\.org\/annuaire;/.test(r.userAgent ?? '')), site.log[0]!.userAgent);
  assert.ok(site.maxInFlight <= 2, `per-host limit: ${site.maxInFlight}`);

  // --write: the results in the files, the comments and every original line kept, website_url untouched.
  const written = await readFile(masterFile, 'utf8');
  assert.match(written, /^# Fiche relue à la main\.\n/);
  assert.match(written, /name: Quiz Master {3}# nom commercial\n/);
  assert.ok(written.includes(`website_url: ${site.origin}/moved\n`));
  assert.ok(written.includes(`links_checked_at: "${report.checked_at}"\nlink_status: redirected\nlink_redirects:\n  website_url: ${site.origin}/final\n`), written);
  let at = 0;
  for (const line of original.split('\n')) {
    at = written.indexOf(`${line}\n`, at);
    assert.ok(at >= 0, `line kept in order: ${line}`);
  }
  const loaded = await loadContent(content);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  const records = new Map(loaded.dataset.tools.map((x) => [x.slug, x]));
  assert.deepEqual([records.get('eleve-plus')!.link_status, records.get('eleve-plus')!.links_checked_at], ['broken', report.checked_at]);
  assert.deepEqual(records.get('quizzy')!.link_redirects, {});
  const store = SqliteStore.open(path.join(content, '..', 'db.sqlite'));
  t.after(() => store.close());
  await store.migrate();
  assert.ok((await importContent(store, content)).ok, 'the written content imports');
});

test('check-links CLI › a table on stdout, --slug narrows the run, exit 0 when nothing is broken', async (t) => {
  const { site, content, allow } = await linkFixture(t);
  const before = await readFile(path.join(content, 'tools', 'quizzy.yaml'), 'utf8');
  const { code, stdout } = await checkLinks(content, '--slug', 'quizzy', '--slug', 'quiz-master', ...allow);
  assert.equal(code, 0);
  const lines = stdout.trim().split('\n');
  assert.match(lines[0]!, /^STATUS\s+TOOL\s+FIELD\s+HTTP\s+URL$/);
  assert.ok(lines.some((l) => /^redirected\s+quiz-master\s+website_url\s+200\s+https:\/\/127\.0\.0\.1:\d+\/moved → https:\/\/127\.0\.0\.1:\d+\/final$/.test(l)), stdout);
  assert.match(stdout, /3 URL\(s\) of 2 tool\(s\): 2 ok, 1 redirected, 0 broken, 0 unreachable\./);
  assert.ok(!site.log.some((r) => r.path === '/gone'), 'other tools are not fetched');
  assert.equal(await readFile(path.join(content, 'tools', 'quizzy.yaml'), 'utf8'), before, 'without --write, no file changes');

  const unknown = await checkLinks(content, '--slug', 'nope');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--slug: no tool "nope"/);
});

test('check-links CLI › invalid content is refused with the file and field, exit 3', async (t) => {
  const { content } = await linkFixture(t);
  const file = path.join(content, 'tools', 'quizzy.yaml');
  await writeFile(file, `${await readFile(file, 'utf8')}link_status: perfect\n`);
  const { code, stderr } = await checkLinks(content);
  assert.equal(code, 3);
  assert.match(stderr, /quizzy\.yaml:\d+: record "quizzy", field link_status: must be one of/);
});

test('check-links CLI › a link or a redirect to a loopback, private or link-local address is refused unfetched, whatever its spelling', async (t) => {
  // The "internal" service a redirect aims at: it must never see a request.
  const internal = await startHttpSite(t, { '/': html('<p>internal</p>') });
  const site = await startHttpsSite(t, {
    '/ok': html('<p>ok</p>'),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/', 302),
    '/to-loopback': redirect(`http://127.0.0.1:${internal.port}/`, 302),
    '/to-localhost': redirect(`http://localhost:${internal.port}/`, 302),
    '/to-mapped': redirect(`http://[::ffff:127.0.0.1]:${internal.port}/`, 302),
    '/to-private': redirect('http://10.0.0.1/', 302),
    '/to-unspecified': redirect(`http://0.0.0.0:${internal.port}/`, 302),
    '/to-decimal': redirect(`http://2130706433:${internal.port}/`, 302),
    '/to-file': redirect('file:///etc/passwd', 302),
  });
  const dataset = fixtureDataset();
  const urls: Record<string, string> = {
    quizzy: `${site.origin}/to-metadata`,
    'quiz-master': `${site.origin}/to-loopback`,
    'eleve-plus': `${site.origin}/to-localhost`,
    'oeuvre-studio': `${site.origin}/to-mapped`,
    'eau-vive': `${site.origin}/to-private`,
    'ecrire-mieux': `${site.origin}/to-unspecified`,
    'zebre-math': `${site.origin}/to-decimal`,
    'atelier-quiz': `${site.origin}/to-file`,
    brouillon: `https://127.0.0.1:${internal.port}/`,
    'ecole-directe-test': `${site.origin}/ok`,
  };
  for (const tool of dataset.tools) tool.website_url = urls[tool.slug]!;
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), dataset);

  const started = Date.now();
  const { code, stdout, stderr } = await checkLinks(content, '--json', '--timeout', '5', '--allow-address', `127.0.0.1:${site.port}`);
  assert.equal(code, 1, stderr);
  const report = JSON.parse(stdout) as { tools: Array<{ slug: string; links: Array<{ field: string; status: string; error: string | null }> }> };
  const link = (slug: string) => report.tools.find((x) => x.slug === slug)!.links.find((l) => l.field === 'website_url')!;
  for (const slug of ['quizzy', 'quiz-master', 'eleve-plus', 'oeuvre-studio', 'eau-vive', 'ecrire-mieux', 'zebre-math']) {
    assert.equal(link(slug).status, 'broken', `${slug}: ${JSON.stringify(link(slug))}`);
    assert.match(link(slug).error ?? '', /^redirect refused: .*not a public address$/, slug);
  }
  assert.match(link('quizzy').error!, /169\.254\.169\.254 is link-local/);
  assert.match(link('eleve-plus').error!, /localhost resolves to (127\.0\.0\.1|::1) is loopback/);
  assert.match(link('atelier-quiz').error!, /non-HTTP address \(file:\)/);
  assert.equal(link('brouillon').status, 'broken', 'the first URL is checked too');
  assert.match(link('brouillon').error!, /^refused: 127\.0\.0\.1 is loopback/);
  assert.equal(link('ecole-directe-test').status, 'ok', 'the allowed address is still fetched');
  assert.deepEqual(internal.log, [], 'nothing reached the internal service');
  assert.ok(Date.now() - started < 5_000, `refused at once, not after a timeout (${Date.now() - started} ms)`);

  // The allowance is explicit: without it, the local site itself is refused.
  const strict = await checkLinks(content, '--json', '--slug', 'ecole-directe-test');
  assert.equal(strict.code, 1);
  assert.match(JSON.parse(strict.stdout).tools[0].links[0].error, /^refused: 127\.0\.0\.1 is loopback/);
  const bad = await checkLinks(content, '--allow-address', 'localhost');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--allow-address takes an IP address/);
});

test('Retry-After › delay-seconds and HTTP-date', () => {
  assert.equal(retryAfterMs('120'), 120_000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT', Date.parse('Wed, 21 Oct 2026 07:27:30 GMT')), 30_000);
  assert.equal(retryAfterMs('soon'), null);
  assert.equal(retryAfterMs(null), null);
});
