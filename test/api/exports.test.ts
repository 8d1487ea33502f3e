/**
 * The bulk exports, read back: NDJSON line by line against GET /tools/{slug}, the CSV with
 * a CSV library (csv-parse), the data package against the bytes it describes.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { API, buildTestApp } from '../helpers/build-app.js';
import { fixtureDataset } from '../helpers/fixture.js';
import { importAndRefresh } from '../helpers/follow.js';

const BASE = 'https://api.example.org';
const ENV = { PUBLIC_BASE_URL: BASE };

/** Fields that a naive writer would break: `;`, quotes, line breaks, a decimal amount. */
function trickyDataset() {
  const dataset = fixtureDataset();
  const tool = (slug: string) => dataset.tools.find((t) => t.slug === slug)!;
  tool('quizzy').short_description = 'Quiz « express » ; avec des "guillemets", des points-virgules ; et des accents : éèàçœ.';
  tool('eleve-plus').pricing.summary = 'Première ligne du résumé des offres.\nDeuxième ligne ; avec un "point-virgule".\nTroisième ligne.';
  tool('eleve-plus').pricing.starting_price = { amount: 14.99, currency: 'EUR', period: 'month' };
  tool('quizzy').education_program = { summary: 'Gratuit pour les enseignants.\nEt pour leurs élèves, sans inscription.', eligibility: ['enseignants', 'élèves'], url: null };
  return dataset;
}

interface ToolDetailBody { data: Record<string, unknown> & { slug: string } }

test('export/tools.ndjson › one line per published tool, each the `data` of GET /tools/{slug}, byte for byte', async (t) => {
  const { app } = await buildTestApp(t, { env: ENV, dataset: trickyDataset() });
  const res = await app.inject({ url: `${API}/export/tools.ndjson` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/x-ndjson; charset=utf-8');
  assert.match(String(res.headers.link), /rel="license"/);
  assert.ok(res.body.endsWith('\n'));
  const lines = res.body.slice(0, -1).split('\n');
  const list = (await app.inject({ url: `${API}/tools?per_page=100` })).json();
  assert.equal(lines.length, list.meta.total);
  assert.deepEqual(lines.map((l) => JSON.parse(l).slug), list.data.map((d: { slug: string }) => d.slug), 'in name order, like /tools');
  for (const line of lines) {
    const slug = JSON.parse(line).slug as string;
    const detail = await app.inject({ url: `${API}/tools/${slug}` });
    assert.ok(detail.body.startsWith(`{"data":${line},"meta":`), `${slug}: the same bytes as GET /tools/${slug}`);
  }
});

test('export/tools.csv › UTF-8 with BOM, `;`, CRLF; parsed back by a CSV library it gives the tools, tricky fields intact', async (t) => {
  const { app } = await buildTestApp(t, { env: ENV, dataset: trickyDataset() });
  const res = await app.inject({ url: `${API}/export/tools.csv` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8; header=present');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="tools.csv"');
  assert.deepEqual([...res.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 BOM');
  const header = res.body.slice(1, res.body.indexOf('\r\n'));
  assert.equal(
    header,
    ['slug', 'name', 'short_description', 'category_slug', 'category_name', 'pricing', 'has_education_pricing', 'website_url', 'logo_url', 'api_url',
      'pricing_summary', 'starting_price_amount', 'starting_price_currency', 'starting_price_period', 'pricing_url', 'education_summary',
      'education_eligibility', 'education_url', 'created_at', 'updated_at', 'last_verified_at',
      'tags', 'platforms', 'languages', 'levels', 'subjects', 'pupil_use', 'pupil_account', 'min_age', 'consent_age', 'generative_ai', 'trains_on_user_data', 'data_location', 'institutional_access',
      'offline', 'open_source', 'for_pupils', 'accessibility_url', 'school_sources', 'school_sources_page_dates', 'school_sources_checked_at'].map((h) => `"${h}"`).join(';'),
  );
  // Like most readers, a line break outside quotes ends a record, whether CRLF or LF.
  const rows: Array<Record<string, string>> = parse(res.rawPayload, { bom: true, delimiter: ';', columns: true, record_delimiter: ['\r\n', '\n'] });
  // LibreOffice's import dialog splits on comma, semicolon and tab by default: every value
  // is quoted, so descriptions with commas still land in one column.
  assert.deepEqual(parse(res.rawPayload, { bom: true, delimiter: [';', ',', '\t'], columns: true, record_delimiter: ['\r\n', '\n'] }), rows);
  const details = (await app.inject({ url: `${API}/tools?per_page=100` })).json().data as Array<{ slug: string }>;
  assert.equal(rows.length, details.length);
  for (const [k, summary] of details.entries()) {
    const t: ToolDetailBody['data'] & Record<string, any> = (await app.inject({ url: `${API}/tools/${summary.slug}` })).json().data;
    const price = t.pricing_details.starting_price;
    assert.deepEqual(rows[k], {
      slug: t.slug,
      name: t.name,
      short_description: t.short_description,
      category_slug: t.category.slug,
      category_name: t.category.name,
      pricing: t.pricing,
      has_education_pricing: String(t.has_education_pricing),
      website_url: t.website_url,
      logo_url: t.logo_url ?? '',
      api_url: t.links.self,
      pricing_summary: t.pricing_details.summary,
      starting_price_amount: price ? String(price.amount).replace('.', ',') : '',
      starting_price_currency: price?.currency ?? '',
      starting_price_period: price?.period ?? '',
      pricing_url: t.pricing_details.url ?? '',
      education_summary: t.education_program?.summary ?? '',
      education_eligibility: t.education_program?.eligibility.join(' | ') ?? '',
      education_url: t.education_program?.url ?? '',
      created_at: t.freshness.created_at,
      updated_at: t.freshness.updated_at,
      last_verified_at: t.freshness.last_verified_at,
      tags: t.tags.join('|'),
      platforms: t.platforms.join('|'),
      languages: t.languages.join('|'),
      levels: t.school.levels?.join('|') ?? '',
      subjects: t.school.subjects?.join('|') ?? '',
      pupil_use: t.school.pupil_use ?? '',
      pupil_account: t.school.pupil_account ?? '',
      min_age: t.school.min_age === null ? '' : String(t.school.min_age),
      consent_age: t.school.consent_age === null ? '' : String(t.school.consent_age),
      generative_ai: t.school.generative_ai ?? '',
      trains_on_user_data: t.school.trains_on_user_data ?? '',
      data_location: t.school.data_location ?? '',
      institutional_access: t.school.institutional_access?.join('|') ?? '',
      offline: t.school.offline === null ? '' : String(t.school.offline),
      open_source: t.school.open_source === null ? '' : String(t.school.open_source),
      for_pupils: t.school.for_pupils.map((b: { from: number; to: number | null; answer: string }) => `${b.from}${b.to === null ? '+' : b.to === b.from ? '' : `–${b.to}`} : ${({ yes: 'oui', with_consent: 'avec accord', teacher_led: 'avec l’enseignant', no: 'non', unknown: 'inconnu' } as Record<string, string>)[b.answer]}`).join(' ; '),
      accessibility_url: t.school.accessibility_url ?? '',
      school_sources: t.school.sources.map((s: { url: string }) => s.url).join('|'),
      school_sources_page_dates: t.school.sources.map((s: { page_date: string | null }) => s.page_date ?? '').join('|'),
      school_sources_checked_at: t.school.sources.map((s: { checked_at: string | null }) => s.checked_at ?? '').join('|'),
    }, t.slug);
  }
  const quizzy = rows.find((r) => r.slug === 'quizzy')!;
  assert.equal(quizzy.short_description, 'Quiz « express » ; avec des "guillemets", des points-virgules ; et des accents : éèàçœ.');
  assert.equal(quizzy.education_summary, 'Gratuit pour les enseignants.\nEt pour leurs élèves, sans inscription.');
  const elevePlus = rows.find((r) => r.slug === 'eleve-plus')!;
  assert.equal(elevePlus.pricing_summary, 'Première ligne du résumé des offres.\nDeuxième ligne ; avec un "point-virgule".\nTroisième ligne.');
  assert.equal(elevePlus.starting_price_amount, '14,99', 'a decimal comma, as a French spreadsheet reads numbers');
  assert.equal(rows.find((r) => r.slug === 'oeuvre-studio')!.education_eligibility, 'enseignants | élèves');
  // Every record ends with CRLF, and line breaks inside fields are quoted (RFC 4180 §2).
  assert.ok(res.body.endsWith('\r\n'));
  assert.ok(res.body.includes(';"Première ligne du résumé des offres.\nDeuxième ligne ; avec un ""point-virgule"".\nTroisième ligne.";'));
  assert.ok(res.body.includes(';"14,99";"EUR";"month";'), 'numbers quoted too: a decimal comma is no separator');
});

test('export/tools.csv › a cell a spreadsheet would read as a formula (=, +, -, @, tab, CR first) starts with a single quote; NDJSON keeps the value', async (t) => {
  const dataset = fixtureDataset();
  const tool = (slug: string) => dataset.tools.find((x) => x.slug === slug)!;
  tool('quizzy').name = '=HYPERLINK("https://evil.example","Quizzy")';
  tool('quiz-master').short_description = '-2+3 : un outil de calcul mental pour la classe entière, du CP au CM2.';
  tool('eleve-plus').pricing.summary = '+33 1 23 45 67 89 pour un devis ; abonnement annuel par établissement.';
  tool('oeuvre-studio').education_program = { summary: '@enseignants : gratuit pour les professeurs de lettres.', eligibility: ['@enseignants', 'élèves'], url: null };
  const { app } = await buildTestApp(t, { env: ENV, dataset });
  const rows = parse((await app.inject({ url: `${API}/export/tools.csv` })).body, { bom: true, delimiter: ';', columns: true }) as Array<Record<string, string>>;
  const row = (slug: string) => rows.find((r) => r.slug === slug)!;
  assert.equal(row('quizzy').name, `'=HYPERLINK("https://evil.example","Quizzy")`);
  assert.equal(row('quiz-master').short_description, "'-2+3 : un outil de calcul mental pour la classe entière, du CP au CM2.");
  assert.equal(row('eleve-plus').pricing_summary, "'+33 1 23 45 67 89 pour un devis ; abonnement annuel par établissement.");
  assert.equal(row('oeuvre-studio').education_summary, "'@enseignants : gratuit pour les professeurs de lettres.");
  assert.equal(row('oeuvre-studio').education_eligibility, "'@enseignants | élèves");
  // Nothing else is touched: ordinary text, dates, URLs, numbers.
  assert.equal(row('ecrire-mieux').name, 'Écrire Mieux');
  assert.match(row('quizzy').updated_at!, /^2026-/);
  assert.ok(rows.every((r) => !Object.values(r).some((v) => /^[=+\-@\t\r]/.test(v))), 'no cell starts with a formula character');
  // The JSON export is read by programs, not spreadsheets: the value as it is.
  const ndjson = (await app.inject({ url: `${API}/export/tools.ndjson` })).body.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(ndjson.find((x) => x.slug === 'quizzy').name, '=HYPERLINK("https://evil.example","Quizzy")');
  // And the data package says so.
  const pkg = (await app.inject({ url: `${API}/datapackage.json` })).json();
  assert.match(pkg.resources[0].description, /apostrophe/);
});

test('datapackage.json › a Frictionless Data Package: both exports, their schemas, size and hash, CC BY 4.0, the publisher as source', async (t) => {
  const { app } = await buildTestApp(t, { env: ENV, dataset: trickyDataset() });
  const pkg = (await app.inject({ url: `${API}/datapackage.json` })).json();
  assert.equal(pkg.$schema, 'https://datapackage.org/profiles/2.0/datapackage.json');
  assert.match(pkg.name, /^[a-z0-9._-]+$/, 'name: lowercase, url-usable');
  assert.deepEqual(pkg.licenses, [{ name: 'CC-BY-4.0', path: 'https://creativecommons.org/licenses/by/4.0/', title: 'Creative Commons Attribution 4.0 International' }]);
  assert.deepEqual(pkg.sources, [{ title: 'Éditeur de test', path: 'https://editeur.example.org' }]);
  assert.deepEqual(pkg.resources.map((r: { name: string }) => r.name), ['tools-csv', 'tools-ndjson']);
  const names = new Set<string>();
  for (const resource of pkg.resources) {
    assert.ok(!names.has(resource.name), 'resource names are unique');
    names.add(resource.name);
    assert.ok(resource.path.startsWith(`${BASE}${API}/export/`), 'an absolute URL');
    const served = await app.inject({ url: resource.path.slice(BASE.length) });
    assert.equal(resource.bytes, served.rawPayload.length, `${resource.name}: bytes`);
    assert.equal(resource.hash, `sha256:${createHash('sha256').update(served.rawPayload).digest('hex')}`, `${resource.name}: hash`);
    assert.equal(resource.mediatype, String(served.headers['content-type']).split(';')[0]);
    assert.deepEqual(resource.schema.primaryKey, ['slug']);
    for (const field of resource.schema.fields) assert.ok(['string', 'number', 'integer', 'boolean', 'datetime', 'object', 'array'].includes(field.type), `${field.name}: a Table Schema type`);
  }
  const [csv, ndjson] = pkg.resources;
  const csvBody = (await app.inject({ url: `${API}/export/tools.csv` })).body;
  assert.deepEqual(csv.schema.fields.map((f: { name: string }) => f.name), parse(csvBody, { bom: true, delimiter: ';', to: 1 })[0], 'CSV fields = the header row');
  assert.deepEqual(csv.dialect, { delimiter: ';', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true, header: true });
  assert.equal(csv.schema.fields.find((f: { name: string }) => f.name === 'starting_price_amount').decimalChar, ',');
  const firstLine = JSON.parse((await app.inject({ url: `${API}/export/tools.ndjson` })).body.split('\n')[0]!);
  assert.deepEqual(ndjson.schema.fields.map((f: { name: string }) => f.name), Object.keys(firstLine), 'NDJSON fields = the keys of each line');
  const type = (name: string) => ndjson.schema.fields.find((f: { name: string }) => f.name === name);
  assert.equal(type('updated_at').type, 'datetime');
  assert.equal(type('has_education_pricing').type, 'boolean');
  assert.equal(type('freshness').type, 'object');
  assert.equal(type('tags').type, 'array');
  assert.deepEqual(type('pricing').constraints, { enum: ['free', 'freemium', 'paid', 'enterprise'] });
});

test('exports › built once per revision: the same bytes until an import, then new ones; compressed on demand', async (t) => {
  const ctx = await buildTestApp(t, { env: ENV });
  for (const path of ['export/tools.ndjson', 'export/tools.csv', 'datapackage.json']) {
    const url = `${API}/${path}`;
    const first = await ctx.app.inject({ url });
    const second = await ctx.app.inject({ url });
    assert.equal(second.headers.etag, first.headers.etag, path);
    const gz = await ctx.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip', path);
    assert.deepEqual(gunzipSync(gz.rawPayload), first.rawPayload, path);
    assert.equal((await ctx.app.inject({ url, headers: { 'if-none-match': first.headers.etag as string } })).statusCode, 304, path);
  }
  const before = await ctx.app.inject({ url: `${API}/export/tools.csv` });
  const dataset = fixtureDataset();
  dataset.tools.find((x) => x.slug === 'quizzy')!.name = 'Quizzy Deux';
  await importAndRefresh(ctx, dataset);
  const after = await ctx.app.inject({ url: `${API}/export/tools.csv`, headers: { 'if-none-match': before.headers.etag as string } });
  assert.equal(after.statusCode, 200, 'the old ETag no longer matches');
  assert.ok(after.body.includes('Quizzy Deux'));
});

test('exports and feeds › rate limited like the rest of the API, by the same per-client count', async (t) => {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '3' } });
  const urls = [`${API}/export/tools.csv`, `${API}/feed.atom`, `${API}/datapackage.json`, `${API}/export/tools.ndjson`];
  const statuses = [];
  for (const url of urls) statuses.push((await app.inject({ url })).statusCode);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const refused = await app.inject({ url: `${API}/changes` });
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.headers['cache-control'], 'no-store');
});
