/**
 * The bundled directory (content/) as a publisher ships it: valid, complete, honest-looking
 * and in French. These thresholds are the acceptance criteria.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import type { Dataset } from '../../src/domain.js';
import { formatProblem } from '../../src/content/content-problems.js';
import { loadContent } from '../../src/content/load-content.js';
import { foldedWords } from '../../src/text/french-text.js';

const CONTENT = path.resolve(import.meta.dirname, '../../content');
let dataset: Dataset;

before(async () => {
  const loaded = await loadContent(CONTENT);
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.problems.map(formatProblem).join('\n'));
  dataset = loaded.dataset;
});

const published = () => dataset.tools.filter((t) => t.status === 'published');

test('content › every file validates and at least 340 tools are published', () => {
  assert.ok(published().length >= 340, `${published().length} published tools`);
});

test('content › at least 12 categories, each with at least 5 published tools', () => {
  const counts = new Map<string, number>();
  for (const t of published()) counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
  assert.ok(dataset.categories.length >= 12);
  for (const c of dataset.categories) assert.ok((counts.get(c.slug) ?? 0) >= 5, `${c.slug}: ${counts.get(c.slug) ?? 0}`);
});

test('content › at least 40 published tools with an education program, each complete', () => {
  const withProgram = published().filter((t) => t.education_program !== null);
  assert.ok(withProgram.length >= 40, `${withProgram.length}`);
  for (const t of withProgram) assert.ok(t.education_program!.eligibility.length > 0, t.slug);
});

test('content › at least 8 top and 8 stack published collections of 5 to 10 published tools', () => {
  const live = dataset.collections.filter((c) => c.status === 'published');
  const publishedSlugs = new Set(published().map((t) => t.slug));
  assert.ok(live.filter((c) => c.kind === 'top').length >= 8);
  assert.ok(live.filter((c) => c.kind === 'stack').length >= 8);
  for (const c of live) {
    const n = c.items.filter((i) => publishedSlugs.has(i.tool)).length;
    assert.ok(n >= 5 && n <= 10, `${c.slug}: ${n} published tools`);
  }
});

test('content › drafts exist (tools and a collection) and renamed slugs are there', () => {
  assert.ok(dataset.tools.filter((t) => t.status === 'draft').length >= 2);
  assert.ok(dataset.collections.some((c) => c.status === 'draft'));
  const renamed = published().filter((t) => t.former_slugs.length > 0).map((t) => t.slug);
  assert.ok(renamed.length >= 2, renamed.join(', '));
  assert.ok(renamed.includes('gemini') && renamed.includes('microsoft-copilot'));
});

test('content › slugs, names and websites are unique; websites are https', () => {
  const slugs = new Set<string>();
  const names = new Set<string>();
  const sites = new Set<string>();
  for (const t of dataset.tools) {
    assert.ok(!slugs.has(t.slug), t.slug);
    assert.ok(!names.has(t.name.toLowerCase()), t.name);
    const site = t.website_url.replace(/\/$/, '').toLowerCase();
    assert.ok(!sites.has(site), site);
    slugs.add(t.slug);
    names.add(t.name.toLowerCase());
    sites.add(site);
    assert.match(t.website_url, /^https:\/\//);
    assert.equal(t.screenshot, null, `${t.slug}: no screenshot until we host a real one`);
    assert.equal(t.last_verified_at, null, `${t.slug}: no editor has checked the facts on the tool's site yet`);
  }
});

// Frequent French function words; a French text of a few sentences always has many of them.
const FRENCH = new Set('le la les un une des du de et en est pour par avec sur dans qui que au aux ou il elle on ses son sa leur leurs ce cette ces pas plus ne se peut sont lors comme tout tous'.split(' '));
const ENGLISH = new Set('the and with for you your this that are from which can our'.split(' '));

function frenchScore(text: string): { french: number; english: number; words: number } {
  const words = foldedWords(text.toLowerCase().replace(/[’']/g, ' '));
  const all = text.toLowerCase().replace(/[’']/g, ' ').split(/[^\p{L}]+/u).filter(Boolean);
  return { french: all.filter((w) => FRENCH.has(w)).length, english: all.filter((w) => ENGLISH.has(w)).length, words: words.length };
}

test('content › French text really is French', () => {
  const offenders: string[] = [];
  for (const t of dataset.tools) {
    const long = frenchScore(t.long_description);
    if (long.french < 15 || long.english > long.french / 4 || !/[éèàçêù]/.test(t.long_description)) offenders.push(`${t.slug} (long)`);
    const short = frenchScore(t.short_description);
    if (short.french < 2 || short.english > short.french) offenders.push(`${t.slug} (short)`);
  }
  for (const c of dataset.collections) {
    if (frenchScore(c.description).french < 3) offenders.push(`${c.slug} (description)`);
    for (const item of c.items) if (frenchScore(item.note).french < 1) offenders.push(`${c.slug} → ${item.tool} (note)`);
  }
  assert.deepEqual(offenders, []);
});

test('content › the data has its own CC BY 4.0 licence', () => {
  const license = path.join(CONTENT, 'LICENSE');
  assert.ok(existsSync(license));
  assert.match(readFileSync(license, 'utf8'), /Creative Commons Attribution 4\.0 International/);
});
