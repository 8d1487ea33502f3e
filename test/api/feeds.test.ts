/**
 * The change feeds, read back as their readers would: the Atom feed through rss-parser
 * (what n8n's RSS trigger uses) and checked against RFC 4287's rules with a strict XML
 * parser; the JSON Feed against the rules of JSON Feed 1.1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset } from '../helpers/fixture.js';
import { editedDataset, importAndRefresh, nextSecond, restarted } from '../helpers/follow.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const BASE = 'https://api.example.org';
const ENV = { PUBLIC_BASE_URL: BASE };

type Node = Record<string, unknown>;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'link', 'category', 'author', 'id', 'title', 'updated', 'published', 'summary', 'content', 'rights'].includes(name) });
const text = (node: unknown): string => (typeof node === 'object' && node !== null ? String((node as Node)['#text'] ?? '') : String(node));

/** RFC 4287's structural rules (§4.1.1, §4.1.2, §3.3) that a reader relies on. */
function checkAtom(body: string): { feed: Node; entries: Node[] } {
  assert.equal(XMLValidator.validate(body), true, 'well-formed XML');
  const doc = xml.parse(body) as { feed: Node };
  const feed = doc.feed;
  assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
  assert.equal(feed['@xml:lang'], 'fr');
  for (const name of ['id', 'title', 'updated']) assert.equal((feed[name] as unknown[]).length, 1, `feed has exactly one ${name}`);
  assert.match(text((feed.updated as unknown[])[0]), RFC3339);
  assert.ok((feed.author as unknown[]).length >= 1, 'a feed-level author, so entries need none');
  const links = feed.link as Node[];
  assert.ok(links.some((l) => l['@rel'] === 'self' && l['@type'] === 'application/atom+xml'), 'rel=self');
  assert.ok(links.some((l) => l['@rel'] === 'license' && l['@href'] === 'https://creativecommons.org/licenses/by/4.0/'), 'RFC 4946 licence link');
  assert.match(text((feed.rights as unknown[])[0]), /CC BY 4\.0 — Éditeur de test — https:\/\/editeur\.example\.org/);
  const entries = (feed.entry as Node[] | undefined) ?? [];
  const ids = new Set<string>();
  for (const entry of entries) {
    for (const name of ['id', 'title', 'updated']) assert.equal((entry[name] as unknown[]).length, 1, `entry has exactly one ${name}`);
    const id = text((entry.id as unknown[])[0]);
    assert.match(id, /^tag:editeur\.example\.org,\d{4}-\d{2}-\d{2}:/, 'a tag: URI (RFC 4151)');
    assert.ok(!ids.has(id), `ids are unique: ${id}`);
    ids.add(id);
    assert.match(text((entry.updated as unknown[])[0]), RFC3339);
    assert.equal(text((entry.published as unknown[])[0]), text((entry.updated as unknown[])[0]), 'published = updated = the change');
    // §4.1.1.1: without content an entry needs rel=alternate; these all carry content.
    assert.equal(((entry.content as Node[])[0]!)['@type'], 'text');
  }
  return { feed, entries };
}

/** JSON Feed 1.1's rules for what readers key on. */
function checkJsonFeed(feed: Record<string, unknown>): Array<Record<string, unknown>> {
  assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
  assert.equal(typeof feed.title, 'string');
  assert.equal(feed.feed_url, `${BASE}/api/v1/directory/feed.json`);
  assert.equal(feed.language, 'fr');
  for (const key of Object.keys(feed)) assert.ok(['version', 'title', 'home_page_url', 'feed_url', 'description', 'language', 'authors', 'items'].includes(key) || key.startsWith('_'), `${key}: extensions start with _`);
  const items = feed.items as Array<Record<string, unknown>>;
  const ids = new Set<string>();
  for (const item of items) {
    assert.equal(typeof item.id, 'string');
    assert.ok(!ids.has(item.id as string), 'unique ids');
    ids.add(item.id as string);
    assert.ok(typeof item.content_text === 'string' || typeof item.content_html === 'string', 'content_text or content_html');
    assert.match(item.date_published as string, RFC3339);
  }
  return items;
}

test('feeds › Atom and JSON Feed list the latest changes, newest first, read back by a feed parser', async (t) => {
  const ctx = await buildTestApp(t, { env: ENV });
  await nextSecond();
  await importAndRefresh(ctx, editedDataset());
  const changes = (await ctx.app.inject({ url: `${API}/changes?per_page=100` })).json().data as Array<{ slug: string; kind: string; changed_at: string; revision: number }>;
  const newestFirst = [...changes].reverse();

  const atom = await ctx.app.inject({ url: `${API}/feed.atom` });
  assert.equal(atom.statusCode, 200);
  assert.equal(atom.headers['content-type'], 'application/atom+xml; charset=utf-8');
  assert.equal(atom.headers['cache-control'], 'public, max-age=300');
  const { entries } = checkAtom(atom.body);
  assert.equal(entries.length, 12);

  // Subscribe as n8n does (rss-parser): one item per change, its date that of the change.
  const parsed = await new Parser().parseString(atom.body);
  assert.equal(parsed.title, 'Éditeur de test — derniers changements');
  assert.equal(parsed.feedUrl, `${BASE}/api/v1/directory/feed.atom`);
  assert.deepEqual(parsed.items.slice(0, 3).map((i) => i.title), [
    'Retiré de l’annuaire : Quizzy',
    'Nouvelle adresse : Quiz Maestro (quiz-master → quiz-maestro)',
    'Mise à jour : Eau Vive',
  ]);
  assert.deepEqual(parsed.items.map((i) => i.isoDate!.replace('.000Z', 'Z')), newestFirst.map((c) => c.changed_at));
  const renamed = parsed.items[1]!;
  assert.equal(renamed.link, `${BASE}/outils/quiz-maestro`, 'the tool’s page, for people (the API is the JSON alternate)');
  assert.match(atom.body, new RegExp(`<link rel="alternate" type="application/json" href="${BASE}/api/v1/directory/tools/quiz-maestro"/>`));
  assert.match(renamed.content!, /Catégorie : Quiz et interaction · Tarif : Freemium\nSite : https:\/\/quiz-master\.example\.org\//);
  assert.equal(parsed.items[0]!.link, 'https://quizzy.example.org/', 'unpublished: only the website is left to link');
  assert.equal(parsed.items[2]!.summary, "Simulations du cycle de l'eau, nouvelle version avec des fiches d'activité pour le cycle 3.");
  const atomIds = parsed.items.map((i) => (i as { id?: string }).id);
  assert.ok(!atom.body.includes('Brouillon') && !atom.body.includes('brouillon'), 'no draft');

  const json = await ctx.app.inject({ url: `${API}/feed.json` });
  assert.equal(json.headers['content-type'], 'application/feed+json; charset=utf-8');
  const items = checkJsonFeed(json.json());
  assert.deepEqual(items.map((i) => i.id), atomIds, 'the same entries, the same ids, in both feeds');
  assert.deepEqual(items[1], {
    id: atomIds[1],
    url: `${BASE}/outils/quiz-maestro`,
    external_url: 'https://quiz-master.example.org/',
    title: 'Nouvelle adresse : Quiz Maestro (quiz-master → quiz-maestro)',
    summary: 'Créer un quiz en quelques minutes et le projeter en classe pour faire réviser les élèves.',
    content_text: 'Créer un quiz en quelques minutes et le projeter en classe pour faire réviser les élèves.\n\nCatégorie : Quiz et interaction · Tarif : Freemium\nSite : https://quiz-master.example.org/',
    date_published: newestFirst[1]!.changed_at,
    date_modified: newestFirst[1]!.changed_at,
    tags: ['Quiz et interaction', 'Freemium'],
    _change: { kind: 'renamed', slug: 'quiz-maestro', previous_slug: 'quiz-master', revision: 2, category: { slug: 'quiz', name: 'Quiz et interaction' }, pricing: 'freemium', api_url: `${BASE}/api/v1/directory/tools/quiz-maestro` },
  });
  assert.equal(items[0]!.url, undefined, 'unpublished: no page');
  assert.equal((items[0] as { _change: { api_url: string | null } })._change.api_url, null, 'unpublished: no API URL');
  assert.deepEqual(json.json()._license, { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'Éditeur de test — https://editeur.example.org' });

  // The same bytes from a restarted process: ids and dates come from the store, not the clock.
  const again = await restarted(t, ctx);
  assert.equal((await again.inject({ url: `${API}/feed.atom` })).body, atom.body);
  assert.equal((await again.inject({ url: `${API}/feed.json` })).body, json.body);
});

test('feeds › an update is a new entry with a new id, so readers that de-duplicate by id see it', async (t) => {
  const ctx = await buildTestApp(t, { env: ENV });
  const before = await new Parser().parseString((await ctx.app.inject({ url: `${API}/feed.atom` })).body);
  assert.deepEqual(before.items.map((i) => i.title).sort(), fixtureDataset().tools.filter((x) => x.status === 'published').map((x) => `Nouvel outil : ${x.name}`).sort());
  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'zebre-math')!.short_description = 'Exercices de calcul mental pour le cycle 3, désormais avec un défi hebdomadaire pour la classe.';
  await nextSecond();
  await importAndRefresh(ctx, dataset);
  const after = await new Parser().parseString((await ctx.app.inject({ url: `${API}/feed.atom` })).body);
  const seen = new Set(before.items.map((i) => (i as { id?: string }).id));
  const fresh = after.items.filter((i) => !seen.has((i as { id?: string }).id));
  assert.deepEqual(fresh.map((i) => i.title), ['Mise à jour : Zèbre Math']);
  assert.ok(Date.parse(fresh[0]!.isoDate!) > Math.max(...before.items.map((i) => Date.parse(i.isoDate!))), 'a later date than anything seen');
});

test('feeds › at most the 50 latest changes', async (t) => {
  const dataset = fixtureDataset();
  const model = dataset.tools[0]!;
  for (let n = 0; n < 55; n++) {
    dataset.tools.push({ ...model, slug: `outil-${String(n).padStart(2, '0')}`, name: `Outil ${n}`, website_url: `https://outil-${n}.example.org/`, former_slugs: [] });
  }
  const { app } = await buildTestApp(t, { env: ENV, dataset });
  const items = checkJsonFeed((await app.inject({ url: `${API}/feed.json` })).json());
  assert.equal(items.length, 50);
  assert.equal(checkAtom((await app.inject({ url: `${API}/feed.atom` })).body).entries.length, 50);
  assert.equal((await app.inject({ url: `${API}/changes` })).json().meta.total, 64);
});

test('feeds › text that needs escaping stays text', async (t) => {
  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'quizzy')!.short_description = 'Quiz <b>gras</b> & « citations » : "x" < y > z, pour la classe et les élèves.';
  const { app } = await buildTestApp(t, { env: ENV, dataset });
  const body = (await app.inject({ url: `${API}/feed.atom` })).body;
  checkAtom(body);
  assert.ok(!body.includes('<b>'), 'markup is escaped');
  const item = (await new Parser().parseString(body)).items.find((i) => i.title === 'Nouvel outil : Quizzy')!;
  assert.equal(item.summary, 'Quiz <b>gras</b> & « citations » : "x" < y > z, pour la classe et les élèves.');
});
