/**
 * Reads and validates the content directory (docs/content-format.md). Returns the dataset,
 * or every problem found, each naming the file, the record and the field at fault, so the
 * publisher can fix them all in one pass. Nothing here touches a database.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Value, type ValueError } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import YAML from 'yaml';
import type { CategoryRecord, CollectionRecord, Dataset, ToolRecord } from '../domain.js';
import { canonicalDate } from '../store/rows.js';
import { normalizeText } from '../text/french-text.js';
import { CategoryFile, CollectionFile, ToolFile } from './content-schema.js';

export interface ContentProblem {
  file: string;
  record: string | null;
  field: string | null;
  message: string;
}

export type LoadResult = { ok: true; dataset: Dataset; files: number } | { ok: false; problems: ContentProblem[] };

export class ContentProblems {
  readonly list: ContentProblem[] = [];
  add(file: string, record: string | null, field: string | null, message: string): void {
    this.list.push({ file, record, field, message });
  }
}

export function formatProblem(p: ContentProblem): string {
  const where = [p.record ? `record "${p.record}"` : null, p.field ? `field ${p.field}` : null].filter(Boolean).join(', ');
  return `${p.file}${where ? `: ${where}` : ''}: ${p.message}`;
}

/** Loads `dir` (the folder holding categories.yaml, tools/ and collections/). */
export async function loadContent(dir: string): Promise<LoadResult> {
  const problems = new ContentProblems();
  const rel = (file: string) => path.relative(process.cwd(), file) || file;

  const categoriesFile = path.join(dir, 'categories.yaml');
  const rawCategories = await readYaml(categoriesFile, rel(categoriesFile), problems);
  const categories = rawCategories === undefined ? [] : checkSchema<CategoryRecord[]>(CategoryFile, rawCategories, rel(categoriesFile), null, problems) ?? [];

  const tools: Array<{ file: string; record: ToolRecord }> = [];
  for (const file of await yamlFiles(path.join(dir, 'tools'), problems, rel)) {
    const raw = await readYaml(file, rel(file), problems);
    if (raw === undefined) continue;
    const slug = path.basename(file, '.yaml');
    const record = checkSchema<ToolRecord>(ToolFile, raw, rel(file), slug, problems);
    if (record && canonicalDates(record, ['created_at', 'updated_at', 'last_verified_at'], rel(file), problems)) tools.push({ file: rel(file), record });
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
    files: 1 + tools.length + collections.length,
    dataset: { categories, tools: tools.map((t) => t.record), collections: collections.map((c) => c.record) },
  };
}

/** Rewrites the record's dates in canonical form; false (with a problem) for an impossible date. */
function canonicalDates<T extends { slug: string }>(record: T, fields: Array<keyof T & string>, file: string, problems: ContentProblems): boolean {
  let ok = true;
  for (const field of fields) {
    const value = record[field] as string;
    const time = Date.parse(value);
    if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value.slice(0, 10)) {
      problems.add(file, record.slug, field, `is not a real date (got "${value}")`);
      ok = false;
    } else {
      (record as Record<string, unknown>)[field] = canonicalDate(value);
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

async function readYaml(file: string, shown: string, problems: ContentProblems): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    problems.add(shown, null, null, `cannot read: ${(err as Error).message}`);
    return undefined;
  }
  const doc = YAML.parseDocument(text, { uniqueKeys: true, schema: 'core', prettyErrors: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) problems.add(shown, null, null, `invalid YAML: ${e.message.split('\n')[0]}`);
    return undefined;
  }
  return normalizeStrings(doc.toJS());
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

function checkSchema<T>(schema: TSchema, value: unknown, file: string, record: string | null, problems: ContentProblems): T | undefined {
  if (Value.Check(schema, value)) return value as T;
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const field = fieldName(error.path);
    if ([...seen].some((s) => field.startsWith(s))) continue; // one message per field, parents first
    seen.add(field);
    const recordName = record ?? recordFromPath(value, error.path);
    problems.add(file, recordName, field || null, describe(error));
  }
  return undefined;
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

function describe(error: ValueError): string {
  const schema = error.schema as { anyOf?: Array<{ const?: unknown; type?: string }>; pattern?: string };
  const literals = schema.anyOf?.map((s) => s.const).filter((c) => c !== undefined);
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
