/**
 * Reads and validates the content directory (docs/content-format.md). Returns the dataset,
 * or every problem found, each naming the file, the record and the field at fault, so the
 * publisher can fix them all in one pass. Nothing here touches a database.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Value, type ValueError } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import YAML, { LineCounter } from 'yaml';
import { screenshotVariantFile, type CategoryRecord, type CollectionRecord, type Dataset, type Screenshot, type SynonymSet, type ToolRecord } from '../domain.js';
import { isStopWord, tokenize } from '../search/analyzer.js';
import { expressionTerms } from '../search/synonyms.js';
import { canonicalDate } from '../store/rows.js';
import { normalizeText } from '../text/french-text.js';
import { CategoryFile, CollectionFile, SynonymsFile, ToolFile } from './content-schema.js';

export interface ContentProblem {
  file: string;
  record: string | null;
  field: string | null;
  message: string;
  /** The line of the file the problem is on, from 1, where it can be told. */
  line?: number;
}

export type LoadResult = { ok: true; dataset: Dataset; files: number } | { ok: false; problems: ContentProblem[] };

export class ContentProblems {
  readonly list: ContentProblem[] = [];
  add(file: string, record: string | null, field: string | null, message: string, line?: number): void {
    this.list.push({ file, record, field, message, ...(line !== undefined ? { line } : {}) });
  }
}

export function formatProblem(p: ContentProblem): string {
  const where = [p.record ? `record "${p.record}"` : null, p.field ? `field ${p.field}` : null].filter(Boolean).join(', ');
  return `${p.file}${p.line !== undefined ? `:${p.line}` : ''}${where ? `: ${where}` : ''}: ${p.message}`;
}

/** A parsed content file: its value, and where in the text a value stands. */
interface YamlFile {
  value: unknown;
  /** The line (from 1) of the value at `path`, or of its nearest parent that exists. */
  lineOf(path: ReadonlyArray<string | number>): number | undefined;
}

/** Loads `dir` (the folder holding categories.yaml, tools/ and collections/). */
export async function loadContent(dir: string): Promise<LoadResult> {
  const problems = new ContentProblems();
  const rel = (file: string) => path.relative(process.cwd(), file) || file;

  const categoriesFile = path.join(dir, 'categories.yaml');
  const rawCategories = await readYaml(categoriesFile, rel(categoriesFile), problems);
  const categories = rawCategories === undefined ? [] : (checkSchema<CategoryRecord[]>(CategoryFile, rawCategories, rel(categoriesFile), null, problems) ?? []);

  const synonymsFile = path.join(dir, 'synonyms.yaml');
  const synonyms = await loadSynonyms(synonymsFile, rel(synonymsFile), problems);

  const tools: Array<{ file: string; record: ToolRecord }> = [];
  for (const file of await yamlFiles(path.join(dir, 'tools'), problems, rel)) {
    const raw = await readYaml(file, rel(file), problems);
    if (raw === undefined) continue;
    const slug = path.basename(file, '.yaml');
    const record = checkSchema<ToolRecord>(ToolFile, raw, rel(file), slug, problems);
    if (record === undefined) continue;
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
    const raw = await readYaml(file, rel(file), problems);
    if (raw === undefined) continue;
    const slug = path.basename(file, '.yaml');
    const record = checkSchema<CollectionRecord>(CollectionFile, raw, rel(file), slug, problems);
    if (record && canonicalDates(record, ['created_at', 'updated_at'], rel(file), problems)) collections.push({ file: rel(file), record });
  }

  checkReferences(rel(categoriesFile), categories, tools, collections, problems);
  if (problems.list.length > 0) return { ok: false, problems: problems.list };
  return {
    ok: true,
    files: 1 + tools.length + collections.length + (synonyms === EMPTY_SYNONYMS ? 0 : 1),
    dataset: { categories, tools: tools.map((t) => t.record), collections: collections.map((c) => c.record), synonyms },
  };
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

/**
 * The largest content file read (the biggest bundled one is under 20 kB): a bigger one is a
 * problem naming it, not an import that runs out of memory parsing it.
 */
export const MAX_CONTENT_FILE_BYTES = 4 * 1024 * 1024;

async function readYaml(file: string, shown: string, problems: ContentProblems): Promise<YamlFile | undefined> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > MAX_CONTENT_FILE_BYTES) {
      problems.add(shown, null, null, `is ${(size / 1024 / 1024).toFixed(1)} MiB; a content file has at most ${MAX_CONTENT_FILE_BYTES / 1024 / 1024} MiB (one file per tool or collection)`);
      return undefined;
    }
    text = await readFile(file, 'utf8');
  } catch (err) {
    problems.add(shown, null, null, `cannot read: ${(err as Error).message}`);
    return undefined;
  }
  const lines = new LineCounter();
  const doc = YAML.parseDocument(text, { uniqueKeys: true, schema: 'core', prettyErrors: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) problems.add(shown, null, null, `invalid YAML: ${e.message.split('\n')[0]}`, e.linePos?.[0].line);
    return undefined;
  }
  return {
    value: normalizeStrings(doc.toJS()),
    lineOf(at) {
      for (let depth = at.length; depth >= 0; depth--) {
        const node = doc.getIn(at.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
        if (node?.range) return lines.linePos(node.range[0]).line;
      }
      return undefined;
    },
  };
}

/** NFC everywhere, zero-width and control characters out, block scalars trimmed. */
function normalizeStrings(value: unknown): unknown {
  if (typeof value === 'string') return normalizeText(value).trim();
  if (Array.isArray(value)) return value.map(normalizeStrings);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normalizeStrings(v);
    return out;
  }
  return value;
}

function checkSchema<T>(schema: TSchema, yaml: YamlFile, file: string, record: string | null, problems: ContentProblems): T | undefined {
  const value = yaml.value;
  if (Value.Check(schema, value)) return value as T;
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const field = fieldName(error.path);
    if ([...seen].some((s) => field.startsWith(s))) continue; // one message per field, parents first
    seen.add(field);
    const recordName = record ?? recordFromPath(value, error.path);
    const at = error.path.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p.replaceAll('~1', '/').replaceAll('~0', '~')));
    problems.add(file, recordName, field || null, describe(error), yaml.lineOf(at));
  }
  return undefined;
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
  const yaml = await readYaml(file, shown, problems);
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

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

function fieldName(pointer: string): string {
  return pointer.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
}

function recordFromPath(value: unknown, pointer: string): string | null {
  const index = /^\/(\d+)/.exec(pointer)?.[1];
  if (index === undefined || !Array.isArray(value)) return null;
  const item = value[Number(index)] as { slug?: unknown } | undefined;
  return typeof item?.slug === 'string' ? item.slug : `#${Number(index) + 1}`;
}

/** The values an enum (a union of literals, possibly nullable) allows: `ok, broken, null`. */
function literalsOf(schema: { anyOf?: unknown[]; const?: unknown; type?: unknown }): unknown[] {
  if (!schema.anyOf) return [];
  const values = (schema.anyOf as Array<typeof schema>).flatMap((s) => (s.const !== undefined ? [s.const] : s.type === 'null' ? ['null'] : literalsOf(s)));
  return values.length > 0 && values.some((v) => v !== 'null') ? values : [];
}

function describe(error: ValueError): string {
  const literals = literalsOf(error.schema as { anyOf?: unknown[] });
  if (literals && literals.length > 0) return `must be one of ${literals.join(', ')} (got ${JSON.stringify(error.value)})`;
  if (error.message.startsWith('Expected string to match')) return `has the wrong format (got ${JSON.stringify(error.value)})`;
  if (error.message === 'Unexpected property') return 'is not a known field';
  if (error.message.startsWith('Expected required property')) return 'is missing';
  return `${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}${typeof error.value === 'string' ? ` (has ${[...error.value].length} characters)` : ''}`;
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
