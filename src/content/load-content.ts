/**
 * Reads and validates the content directory (docs/content-format.md). Returns the dataset,
 * or every problem found, each naming the file, the record and the field at fault, so the
 * publisher can fix them all in one pass. Nothing here touches a database.
 */
import { checkFactsAgainstText } from './fact-consistency.js';
import { loadRules } from './rules-content.js';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { EMPTY_SEARCH_VOCABULARY, screenshotVariantFile, type CategoryRecord, type CollectionRecord, type Dataset, type LevelEntry, type Screenshot, type SubjectEntry, type SynonymSet, type ToolRecord } from '../domain.js';
import { isStopWord, tokenize } from '../search/analyzer.js';
import { expressionTerms } from '../search/synonyms.js';
import { canonicalDate } from '../store/rows.js';
import { CategoryFile, CollectionFile, LevelsFile, SubjectsFile, SynonymsFile, ToolFile } from './content-schema.js';
import { ContentProblems, type ContentProblem } from './content-problems.js';
import { loadSearchEnglish, loadSearchVocabulary } from './search-vocabulary-content.js';
import { BY_INDEX, checkSchema, exists, fieldName, readYaml, type YamlFile } from './yaml-file.js';
import { checkSchoolFacts, checkTags, checkVocabulary, indexVocabularies } from './school-content.js';

/** `notes`: what the import changed on its own (bidirectional controls removed), to be reported. */
export type LoadResult = { ok: true; dataset: Dataset; files: number; notes: ContentProblem[] } | { ok: false; problems: ContentProblem[] };

/** Loads `dir` (the folder holding categories.yaml, tools/ and collections/). */
export async function loadContent(dir: string): Promise<LoadResult> {
  const problems = new ContentProblems();
  const rel = (file: string) => path.relative(process.cwd(), file) || file;

  const categoriesFile = path.join(dir, 'categories.yaml');
  const rawCategories = await readYaml(categoriesFile, rel(categoriesFile), problems, BY_INDEX);
  const categories = rawCategories === undefined ? [] : (checkSchema<CategoryRecord[]>(CategoryFile, rawCategories, rel(categoriesFile), null, problems) ?? []);

  const synonymsFile = path.join(dir, 'synonyms.yaml');
  const synonyms = await loadSynonyms(synonymsFile, rel(synonymsFile), problems);
  const searchVocabularyFile = path.join(dir, 'search-vocabulary.yaml');
  const searchVocabulary = await loadSearchVocabulary(searchVocabularyFile, rel(searchVocabularyFile), problems);

  const levels = await loadVocabulary<LevelEntry>(path.join(dir, 'levels.yaml'), LevelsFile, rel, problems);
  const subjects = await loadVocabulary<SubjectEntry>(path.join(dir, 'subjects.yaml'), SubjectsFile, rel, problems);
  const vocabularies = { levels, subjects };
  const indexes = indexVocabularies(vocabularies);

  const rules = await loadRules(await yamlFiles(path.join(dir, 'rules'), problems, rel), rel, problems);

  const tools: Array<{ file: string; record: ToolRecord }> = [];
  for (const file of await yamlFiles(path.join(dir, 'tools'), problems, rel)) {
    const slug = path.basename(file, '.yaml');
    const raw = await readYaml(file, rel(file), problems, slug);
    if (raw === undefined) continue;
    const record = checkSchema<ToolRecord>(ToolFile, raw, rel(file), slug, problems);
    if (record === undefined) continue;
    checkSchoolFacts(record, indexes, rel(file), problems, raw.lineOf);
    checkTags(record, indexes, rel(file), problems, raw.lineOf);
    if (record.status === 'published') checkFactsAgainstText(record, indexes.levels, rel(file), problems, raw.lineOf);
    // Fields the link checker adds: a file that was never checked has none of them.
    record.links_checked_at ??= null;
    record.link_status ??= null;
    record.link_redirects ??= {};
    const datesOk = canonicalDates(record, ['created_at', 'updated_at', 'last_verified_at', 'links_checked_at'], rel(file), problems);
    const screenshotOk = await checkScreenshot(record, path.join(dir, 'media'), rel(file), raw, problems);
    if (datesOk && screenshotOk) tools.push({ file: rel(file), record });
  }

  const collections: Array<{ file: string; record: CollectionRecord }> = [];
  for (const file of await yamlFiles(path.join(dir, 'collections'), problems, rel)) {
    const slug = path.basename(file, '.yaml');
    const raw = await readYaml(file, rel(file), problems, slug);
    if (raw === undefined) continue;
    const record = checkSchema<CollectionRecord>(CollectionFile, raw, rel(file), slug, problems);
    if (record && canonicalDates(record, ['created_at', 'updated_at'], rel(file), problems)) collections.push({ file: rel(file), record });
  }

  const englishFile = path.join(dir, 'search-english.yaml');
  const english = await loadSearchEnglish(englishFile, rel(englishFile), new Set(tools.map((t) => t.record.slug)), problems);

  checkReferences(rel(categoriesFile), categories, tools, collections, problems);
  if (problems.list.length > 0) return { ok: false, problems: problems.list };
  return {
    ok: true,
    notes: problems.notes,
    files: 1 + tools.length + collections.length + (synonyms === EMPTY_SYNONYMS ? 0 : 1) + (levels.length > 0 ? 1 : 0) + (subjects.length > 0 ? 1 : 0) + (searchVocabulary === EMPTY_SEARCH_VOCABULARY ? 0 : 1) + (Object.keys(english).length > 0 ? 1 : 0) + rules.length,
    dataset: { categories, tools: tools.map((t) => t.record), collections: collections.map((c) => c.record), synonyms, vocabularies, searchVocabulary: { ...searchVocabulary, english }, rules },
  };
}

/**
 * content/levels.yaml or content/subjects.yaml: optional (a directory without them has no
 * school vocabulary, and then any level or subject a tool names is refused).
 */
async function loadVocabulary<E extends LevelEntry | SubjectEntry>(file: string, schema: TSchema, rel: (f: string) => string, problems: ContentProblems): Promise<E[]> {
  if (!(await exists(file))) return [];
  const yaml = await readYaml(file, rel(file), problems, BY_INDEX);
  if (yaml === undefined) return [];
  const entries = checkSchema<E[]>(schema, yaml, rel(file), null, problems);
  if (entries === undefined) return [];
  checkVocabulary(rel(file), entries, problems);
  return entries;
}

/** Rewrites the record's dates (null ones aside) in canonical form; false (with a problem) for an impossible date. */
function canonicalDates<T extends { slug: string }>(record: T, fields: Array<keyof T & string>, file: string, problems: ContentProblems, prefix = '', slug = record.slug): boolean {
  let ok = true;
  for (const field of fields) {
    const value = record[field] as string | null;
    if (value === null) continue;
    const time = Date.parse(value);
    if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value.slice(0, 10)) {
      problems.add(file, slug, `${prefix}${field}`, `is not a real date (got "${value}")`);
      ok = false;
    } else {
      (record as Record<string, unknown>)[field] = canonicalDate(value);
    }
  }
  return ok;
}

/**
 * A screenshot names files that must be in content/media/: the image and its 640-wide
 * variant, both written by `npm run screenshots`. The API serves them; a missing one would
 * be a broken image in every client.
 */
async function checkScreenshot(record: ToolRecord, mediaDir: string, file: string, yaml: YamlFile, problems: ContentProblems): Promise<boolean> {
  const shot = record.screenshot;
  if (shot === null) return true;
  if (!canonicalDates({ ...shot, slug: record.slug } as Screenshot & { slug: string }, ['captured_at'], file, problems, 'screenshot.')) return false;
  shot.captured_at = canonicalDate(shot.captured_at);
  let ok = true;
  for (const name of [shot.file, screenshotVariantFile(shot.file)]) {
    if (!(await exists(path.join(mediaDir, name)))) {
      problems.add(file, record.slug, 'screenshot.file', `names a file that is not in ${path.relative(process.cwd(), mediaDir) || mediaDir}/ (missing "${name}")`, yaml.lineOf(['screenshot', 'file']));
      ok = false;
    }
  }
  return ok;
}

async function yamlFiles(dir: string, problems: ContentProblems, rel: (f: string) => string): Promise<string[]> {
  try {
    const names = await readdir(dir);
    return names
      .filter((n) => !n.startsWith('.'))
      .sort()
      .flatMap((n) => {
        if (n.endsWith('.yaml')) return [path.join(dir, n)];
        problems.add(rel(path.join(dir, n)), null, null, 'unexpected file: content files end in .yaml');
        return [];
      });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

export const EMPTY_SYNONYMS: SynonymSet = Object.freeze({ families: [], equivalents: [], expansions: [] });
/** Most words (stop words aside) in one expression: a word or a short phrase, not a sentence. */
const MAX_EXPRESSION_WORDS = 6;

/**
 * content/synonyms.yaml (optional): its schema, then what a schema cannot say: every
 * expression must leave a word to search for, have at most six, and appear once per group.
 */
async function loadSynonyms(file: string, shown: string, problems: ContentProblems): Promise<SynonymSet> {
  if (!(await exists(file))) return EMPTY_SYNONYMS;
  const yaml = await readYaml(file, shown, problems, null);
  if (yaml === undefined) return EMPTY_SYNONYMS;
  const raw = checkSchema<{ families?: string[][]; equivalents?: string[][]; expansions?: Record<string, string[]> }>(SynonymsFile, yaml, shown, null, problems);
  if (raw === undefined) return EMPTY_SYNONYMS;
  const before = problems.list.length;
  const check = (expressions: readonly string[], at: ReadonlyArray<string | number>, key?: string) => {
    const seen = new Map<string, string>();
    if (key !== undefined) seen.set(expressionTerms(key)?.join(' ') ?? '', key);
    expressions.forEach((expression, i) => {
      const where = [...at, i];
      const field = fieldName(`/${where.join('/')}`);
      const terms = expressionTerms(expression);
      if (terms === null || onlyStopWords(expression)) {
        problems.add(shown, null, field, `has no word the search looks up: only stop words or punctuation (got ${JSON.stringify(expression)})`, yaml.lineOf(where));
      }
      else if (terms.length > MAX_EXPRESSION_WORDS) {
        problems.add(shown, null, field, `has ${terms.length} words besides stop words; an expression has at most ${MAX_EXPRESSION_WORDS}`, yaml.lineOf(where));
      } else {
        const same = seen.get(terms.join(' '));
        if (same !== undefined) {
          problems.add(shown, null, field, `"${expression}" already finds what "${same}" finds (the search treats them as one word); remove one`, yaml.lineOf(where));
        } else seen.set(terms.join(' '), expression);
      }
    });
  };
  raw.families?.forEach((group, i) => check(group, ['families', i]));
  raw.equivalents?.forEach((group, i) => check(group, ['equivalents', i]));
  for (const [term, finds] of Object.entries(raw.expansions ?? {})) {
    if (expressionTerms(term) === null || onlyStopWords(term)) {
      problems.add(shown, null, `expansions.${term}`, 'has no word the search looks up: only stop words or punctuation', yaml.lineOf(['expansions', term]));
    }
    else check(finds, ['expansions', term], term);
  }
  if (problems.list.length > before) return EMPTY_SYNONYMS;
  return {
    families: raw.families ?? [],
    equivalents: raw.equivalents ?? [],
    expansions: Object.entries(raw.expansions ?? {}).map(([term, finds]) => ({ term, finds })),
  };
}

function onlyStopWords(expression: string): boolean {
  return tokenize(expression).every((t) => isStopWord(t.word));
}

const normalizeUrl = (url: string) => url.toLowerCase().replace(/^https:\/\/(www\.)?/, '').replace(/\/+$/, '');

function checkReferences(
  categoriesFile: string,
  categories: CategoryRecord[],
  tools: Array<{ file: string; record: ToolRecord }>,
  collections: Array<{ file: string; record: CollectionRecord }>,
  problems: ContentProblems,
): void {
  const categorySlugs = new Set<string>();
  for (const c of categories) {
    if (categorySlugs.has(c.slug)) problems.add(categoriesFile, c.slug, 'slug', 'is used by another category');
    categorySlugs.add(c.slug);
  }

  const toolSlugs = new Set(tools.map((t) => t.record.slug));
  const names = new Map<string, string>();
  const urls = new Map<string, string>();
  const formerOwners = new Map<string, string>();
  for (const { file, record: t } of tools) {
    const expected = path.basename(file, '.yaml');
    if (t.slug !== expected) problems.add(file, t.slug, 'slug', `must equal the file name ("${expected}")`);
    if (!categorySlugs.has(t.category)) problems.add(file, t.slug, 'category', `names no category in ${categoriesFile} (got "${t.category}")`);
    const name = t.name.toLocaleLowerCase('fr');
    if (names.has(name)) problems.add(file, t.slug, 'name', `is also the name of tool "${names.get(name)}"`);
    names.set(name, t.slug);
    const url = normalizeUrl(t.website_url);
    if (urls.has(url)) problems.add(file, t.slug, 'website_url', `is also the website of tool "${urls.get(url)}"`);
    urls.set(url, t.slug);
    if (t.created_at > t.updated_at) problems.add(file, t.slug, 'updated_at', 'must not be earlier than created_at');
    const paragraphs = t.long_description.split(/\n[ \t]*\n/).filter((p) => p.trim() !== '');
    if (paragraphs.length < 2 || paragraphs.length > 4) {
      problems.add(file, t.slug, 'long_description', `must have 2 to 4 paragraphs separated by a blank line (has ${paragraphs.length})`);
    }
    for (const former of t.former_slugs) {
      if (toolSlugs.has(former)) problems.add(file, t.slug, 'former_slugs', `"${former}" is the slug of a current tool`);
      else if (formerOwners.has(former)) problems.add(file, t.slug, 'former_slugs', `"${former}" is also a former slug of "${formerOwners.get(former)}"`);
      formerOwners.set(former, t.slug);
    }
    for (const [field, list] of [['tags', t.tags], ['platforms', t.platforms], ['languages', t.languages]] as const) {
      if (new Set(list).size !== list.length) problems.add(file, t.slug, field, 'lists a value twice');
    }
  }

  for (const { file, record: c } of collections) {
    const expected = path.basename(file, '.yaml');
    if (c.slug !== expected) problems.add(file, c.slug, 'slug', `must equal the file name ("${expected}")`);
    if (c.kind === 'top' && (c.task === null || c.persona !== null)) problems.add(file, c.slug, 'task', 'a "top" collection has a task and no persona');
    if (c.kind === 'stack' && (c.persona === null || c.task !== null)) problems.add(file, c.slug, 'persona', 'a "stack" collection has a persona and no task');
    if (c.created_at > c.updated_at) problems.add(file, c.slug, 'updated_at', 'must not be earlier than created_at');
    const seen = new Set<string>();
    c.items.forEach((item, i) => {
      if (!toolSlugs.has(item.tool)) problems.add(file, c.slug, `items[${i}].tool`, `names no tool (got "${item.tool}")`);
      if (seen.has(item.tool)) problems.add(file, c.slug, `items[${i}].tool`, `"${item.tool}" is listed twice`);
      seen.add(item.tool);
    });
  }
}
