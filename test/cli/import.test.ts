import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/cli/import.ts');

async function importCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return importCliWith({}, ...args);
}

async function importCliWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, DATABASE_URL: '', CONTENT_DIR: '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The fixture written as content and imported once into a fresh database. */
async function importedFixture(t: TestContext) {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const dataset = fixtureDataset();
  const content = await writeContent(path.join(dir, 'content'), dataset);
  const db = path.join(dir, 'db.sqlite');
  assert.equal((await importCli('--content', content, '--database', db)).code, 0);
  return { dataset, content, db };
}

async function snapshotOf(file: string) {
  const store = SqliteStore.open(file);
  try {
    return await store.readSnapshot();
  } finally {
    await store.close();
  }
}

test('import CLI › --help explains itself and exits 0', async () => {
  const { code, stdout } = await importCli('--help');
  assert.equal(code, 0);
  assert.match(stdout, /Usage: npm run import/);
  assert.match(stdout, /--dry-run/);
});

test('import CLI › an unknown option is a usage error (exit 2)', async () => {
  const { code, stderr } = await importCli('--frobnicate');
  assert.equal(code, 2);
  assert.match(stderr, /frobnicate/);
});

test('import CLI › a good import reports what it added; a second run changes nothing', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), fixtureDataset());
  const db = path.join(dir, 'db.sqlite');
  const first = await importCli('--content', content, '--database', db);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /Imported revision 1\./);
  assert.match(first.stdout, /tools: 10 added/);
  assert.match(first.stdout, /collections: 3 added/);
  const snapshot = await snapshotOf(db);
  assert.equal(snapshot.revision, 1);
  assert.deepEqual(snapshot.dataset, (await import('../../src/content/load-content.js').then((m) => m.loadContent(content)).then((r) => (r.ok ? r.dataset : null))));
  const second = await importCli('--content', content, '--database', db);
  assert.equal(second.code, 0);
  assert.match(second.stdout, /Nothing changed/);
  assert.equal((await snapshotOf(db)).revision, 1);
});

test('import CLI › a re-import that changes one field reports it, and unpublishing is named', async (t) => {
  const { dataset, content, db } = await importedFixture(t);
  dataset.tools.find((x) => x.slug === 'quizzy')!.name = 'Quizzy Pro';
  dataset.tools.find((x) => x.slug === 'eau-vive')!.status = 'draft';
  await writeContent(content, dataset);
  const res = await importCli('--content', content, '--database', db);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /Imported revision 2\./);
  assert.match(res.stdout, /tools: 2 changed, 1 unpublished/);
  assert.match(res.stdout, /unpublished: eau-vive/);
  const snapshot = await snapshotOf(db);
  assert.equal(snapshot.dataset.tools.find((x) => x.slug === 'quizzy')!.name, 'Quizzy Pro');
});

test('import CLI › one bad record: exit 1, file/record/field named, database untouched', async (t) => {
  const { dataset, content, db } = await importedFixture(t);
  const beforeSnapshot = await snapshotOf(db);

  // A valid change in one file and an invalid value in another: neither may land.
  dataset.tools.find((x) => x.slug === 'quizzy')!.name = 'Renamed';
  await writeContent(content, dataset);
  const file = path.join(content, 'tools', 'zebre-math.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace('model: freemium', 'model: fremium'));

  const line = (await readFile(file, 'utf8')).split('\n').findIndex((l) => l.includes('model: fremium')) + 1;
  const res = await importCli('--content', content, '--database', db);
  assert.equal(res.code, 1);
  assert.ok(res.stderr.includes(`zebre-math.yaml:${line}: record "zebre-math", field pricing.model: must be one of free, freemium, paid, enterprise (got "fremium")`), res.stderr);
  assert.match(res.stderr, /database was not changed/);
  assert.deepEqual(await snapshotOf(db), beforeSnapshot);
});

test('import CLI › broken references and YAML are named too', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const dataset = fixtureDataset();
  dataset.tools[0]!.category = 'nowhere';
  dataset.collections[0]!.items.push({ tool: 'ghost-tool', note: 'Un outil qui n’existe pas dans le dossier.' });
  dataset.tools[1]!.website_url = dataset.tools[2]!.website_url;
  const content = await writeContent(path.join(dir, 'content'), dataset);
  await writeFile(path.join(content, 'tools', 'broken.yaml'), 'slug: broken\nname: [unclosed\n');
  const res = await importCli('--content', content, '--database', path.join(dir, 'db.sqlite'), '--dry-run');
  assert.equal(res.code, 1);
  assert.match(res.stderr, /quizzy\.yaml: record "quizzy", field category: names no category/);
  assert.match(res.stderr, /creer-un-quiz\.yaml: record "creer-un-quiz", field items\[3\]\.tool: names no tool \(got "ghost-tool"\)/);
  assert.match(res.stderr, /field website_url: is also the website of tool/);
  assert.match(res.stderr, /broken\.yaml:3: invalid YAML/);
});

test('import CLI › a bad synonyms entry names the file, line and field; a good change is reported', async (t) => {
  const { dataset, content, db } = await importedFixture(t);
  const before = await snapshotOf(db);
  const file = path.join(content, 'synonyms.yaml');
  const good = await readFile(file, 'utf8');
  await writeFile(file, `${good}\n`.replace('- mental math', '- mental math\n    - calcul mental').replace(/^families:/m, 'families:\n  - [de, la]'));
  const lines = (await readFile(file, 'utf8')).split('\n');
  const res = await importCli('--content', content, '--database', db);
  assert.equal(res.code, 1);
  assert.ok(res.stderr.includes(`synonyms.yaml:${lines.findIndex((l) => l.includes('[de, la]')) + 1}: field families[0][0]`), res.stderr);
  assert.match(res.stderr, /field families\[0\]\[0\]: has no word the search looks up: only stop words/);
  const duplicate = lines.findIndex((l, i) => i > lines.findIndex((x) => x.includes('mental math')) && l.includes('calcul mental')) + 1;
  assert.ok(res.stderr.includes(`synonyms.yaml:${duplicate}: field equivalents[0][2]: "calcul mental" already finds what "calcul mental" finds`), res.stderr);
  assert.deepEqual(await snapshotOf(db), before, 'nothing was imported');

  dataset.synonyms.equivalents.push(['bande dessinée', 'BD']);
  await writeContent(content, dataset);
  const changed = await importCli('--content', content, '--database', db);
  assert.equal(changed.code, 0, changed.stderr);
  assert.match(changed.stdout, /Imported revision 2\.\n {2}synonyms: changed/);
  assert.deepEqual((await snapshotOf(db)).dataset.synonyms.equivalents.at(-1), ['bande dessinée', 'BD']);
});

test('import CLI › --dry-run validates without touching the database', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), fixtureDataset());
  const db = path.join(dir, 'db.sqlite');
  const res = await importCli('--content', content, '--database', db, '--dry-run');
  assert.equal(res.code, 0);
  assert.match(res.stdout, /Content is valid/);
  assert.equal((await snapshotOf(db)).revision, 0);
});

test('import CLI › CONTENT_DIR is the default content folder, as for the server', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const dataset = fixtureDataset();
  const content = await writeContent(path.join(dir, 'content'), dataset);
  const db = path.join(dir, 'db.sqlite');
  const res = await importCliWith({ CONTENT_DIR: content }, '--database', db);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, new RegExp(`Content: ${content.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  // The fixture, not the bundled directory of 400+ tools.
  assert.equal((await snapshotOf(db)).dataset.tools.length, dataset.tools.length);
});

test('import CLI › an oversized content file is a problem naming it; nothing is read into memory or written', async (t) => {
  const { content, db } = await importedFixture(t);
  const huge = path.join(content, 'tools', 'huge.yaml');
  await writeFile(huge, `# ${'x'.repeat(5 * 1024 * 1024)}\nslug: huge\n`);
  const res = await importCli('--content', content, '--database', db);
  assert.equal(res.code, 1);
  assert.match(res.stderr, /tools\/huge\.yaml/);
  assert.match(res.stderr, /5\.0 MiB; a content file has at most 4 MiB/);
  assert.equal((await snapshotOf(db)).revision, 1, 'the database was not changed');
});

test('import CLI › bidirectional control characters: refused in names, slugs and URLs (file, record, field named), removed elsewhere and said so', async (t) => {
  const RLO = '\u202E';
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const refused = fixtureDataset();
  const tool = (slug: string) => refused.tools.find((x) => x.slug === slug)!;
  tool('quizzy').name = `Quiz${RLO}zy`;
  tool('quiz-master').website_url = `https://quiz-master.example.org/${RLO}gpj.exe`;
  tool('eleve-plus').former_slugs = [`eleve${'\u2066'}-moins`];
  tool('eau-vive').pricing.url = `https://eau-vive.example.org/tarifs${'\u200F'}`;
  refused.categories[0]!.name = `Quiz${'\u061C'}`;
  refused.collections[0]!.title = `Créer ${'\u202A'}un quiz`;
  const content = await writeContent(path.join(dir, 'bad'), refused);
  const db = path.join(dir, 'db.sqlite');
  const bad = await importCli('--content', content, '--database', db);
  assert.equal(bad.code, 1, bad.stdout + bad.stderr);
  for (const [file, record, field, code] of [
    ['tools/quizzy.yaml', 'quizzy', 'name', 'U+202E'],
    ['tools/quiz-master.yaml', 'quiz-master', 'website_url', 'U+202E'],
    ['tools/eleve-plus.yaml', 'eleve-plus', 'former_slugs[0]', 'U+2066'],
    ['tools/eau-vive.yaml', 'eau-vive', 'pricing.url', 'U+200F'],
    ['categories.yaml', refused.categories[0]!.slug, '[0].name', 'U+061C'],
    ['collections/creer-un-quiz.yaml', 'creer-un-quiz', 'title', 'U+202A'],
  ]) {
    const line = bad.stderr.split('\n').find((l) => l.includes(file!) && l.includes(`field ${field}:`));
    assert.ok(line, `${file} ${field} named: ${bad.stderr}`);
    assert.ok(line.includes(`record "${record}"`), line);
    assert.match(line, new RegExp(`bidirectional control character.*${code!.replace('+', '\\+')}`), line);
  }
  assert.equal((await snapshotOf(db)).revision, 0, 'nothing imported');

  // Elsewhere (descriptions, summaries, notes) they are removed, and the report says where.
  const stripped = fixtureDataset();
  stripped.tools.find((x) => x.slug === 'quizzy')!.short_description = `Outil Quizzy pour la classe : ${RLO}une description courte en français, pour les enseignants.`;
  stripped.tools.find((x) => x.slug === 'eleve-plus')!.pricing.summary = `Abonnement annuel payant${'\u2067'} par établissement, devis sur demande.`;
  stripped.collections[0]!.items[0]!.note = `Le plus simple pour commencer${'\u200E'}, gratuit pour les enseignants.`;
  const good = await writeContent(path.join(dir, 'good'), stripped);
  const dry = await importCli('--content', good, '--database', db, '--dry-run');
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /Removed bidirectional control characters \(3 fields\)/);
  const ok = await importCli('--content', good, '--database', db);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /Removed bidirectional control characters \(3 fields\)/);
  assert.match(ok.stdout, /tools\/quizzy\.yaml(:\d+)?: record "quizzy", field short_description: U\+202E/);
  assert.match(ok.stdout, /tools\/eleve-plus\.yaml(:\d+)?: record "eleve-plus", field pricing\.summary: U\+2067/);
  assert.match(ok.stdout, /collections\/creer-un-quiz\.yaml(:\d+)?: record "creer-un-quiz", field items\[0\]\.note: U\+200E/);
  const snapshot = await snapshotOf(db);
  const quizzy = snapshot.dataset.tools.find((x) => x.slug === 'quizzy')!;
  assert.equal(quizzy.short_description, 'Outil Quizzy pour la classe : une description courte en français, pour les enseignants.');
  assert.doesNotMatch(JSON.stringify(snapshot.dataset), /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
});
