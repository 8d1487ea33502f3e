/**
 * The mapping between records and table rows, shared by the SQLite and PostgreSQL stores so
 * both keep the same schema shape. Nested values are JSON columns (TEXT in SQLite, JSONB in
 * PostgreSQL); dates are canonical RFC 3339 UTC strings on the way out.
 */
import { EMPTY_SEARCH_VOCABULARY, unknownSchoolFacts, type PupilRuleSet, type CategoryRecord, type CollectionRecord, type Dataset, type SchoolVocabularies, type SearchVocabulary, type SynonymSet, type ToolRecord } from '../domain.js';
import { runAtOnce, type Steps } from '../slices.js';

export type Row = Record<string, unknown>;

export const CATEGORY_COLUMNS = ['slug', 'position', 'name', 'description'] as const;
export const TOOL_COLUMNS = [
  'slug', 'name', 'status', 'category_slug', 'website_url', 'logo_url', 'short_description', 'long_description',
  'pricing_model', 'pricing_summary', 'starting_price', 'pricing_url', 'education_program', 'screenshot',
  'tags', 'platforms', 'languages', 'created_at', 'updated_at', 'last_verified_at',
  'links_checked_at', 'link_status', 'link_redirects', 'school',
] as const;
export const REDIRECT_COLUMNS = ['old_slug', 'tool_slug', 'position'] as const;
export const COLLECTION_COLUMNS = ['slug', 'position', 'title', 'status', 'kind', 'task', 'persona', 'description', 'created_at', 'updated_at'] as const;
export const ITEM_COLUMNS = ['collection_slug', 'position', 'tool_slug', 'note'] as const;
export const SYNONYM_COLUMNS = ['position', 'kind', 'term', 'expressions'] as const;
export const DOCUMENT_COLUMNS = ['name', 'body'] as const;

/** Columns holding JSON. */
export const JSON_COLUMNS = new Set(['starting_price', 'education_program', 'screenshot', 'tags', 'platforms', 'languages', 'link_redirects', 'expressions', 'school', 'body']);

/** `2026-11-21T09:00:00Z` whatever the engine hands back (a Date, or text with milliseconds). */
export function canonicalDate(value: unknown): string {
  const date = value instanceof Date ? value : new Date(String(value));
  return date.toISOString().replace('.000Z', 'Z');
}

const canonicalDateOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : canonicalDate(value));

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

export interface DatasetRows {
  categories: Row[];
  tools: Row[];
  redirects: Row[];
  collections: Row[];
  items: Row[];
  synonyms: Row[];
  /** Whole documents by name: `levels`, `subjects`. */
  documents: Row[];
}

export function datasetToRows(dataset: Dataset): DatasetRows {
  return {
    categories: dataset.categories.map((c, position) => ({ ...c, position })),
    tools: dataset.tools.map((t) => ({
      slug: t.slug, name: t.name, status: t.status, category_slug: t.category, website_url: t.website_url,
      logo_url: t.logo_url, short_description: t.short_description, long_description: t.long_description,
      pricing_model: t.pricing.model, pricing_summary: t.pricing.summary, starting_price: t.pricing.starting_price,
      pricing_url: t.pricing.url, education_program: t.education_program, screenshot: t.screenshot,
      tags: t.tags, platforms: t.platforms, languages: t.languages,
      created_at: t.created_at, updated_at: t.updated_at, last_verified_at: t.last_verified_at,
      links_checked_at: t.links_checked_at, link_status: t.link_status, link_redirects: t.link_redirects, school: t.school,
    })),
    redirects: dataset.tools.flatMap((t) => t.former_slugs.map((old_slug, position) => ({ old_slug, tool_slug: t.slug, position }))),
    collections: dataset.collections.map((c, position) => ({
      slug: c.slug, position, title: c.title, status: c.status, kind: c.kind, task: c.task, persona: c.persona,
      description: c.description, created_at: c.created_at, updated_at: c.updated_at,
    })),
    items: dataset.collections.flatMap((c) => c.items.map((item, position) => ({ collection_slug: c.slug, position, tool_slug: item.tool, note: item.note }))),
    synonyms: [
      ...dataset.synonyms.families.map((expressions) => ({ kind: 'family', term: null, expressions })),
      ...dataset.synonyms.equivalents.map((expressions) => ({ kind: 'equivalent', term: null, expressions })),
      ...dataset.synonyms.expansions.map(({ term, finds }) => ({ kind: 'expansion', term, expressions: finds })),
    ].map((row, position) => ({ position, ...row })),
    documents: [
      { name: 'levels', body: dataset.vocabularies.levels },
      { name: 'subjects', body: dataset.vocabularies.subjects },
      { name: 'search-vocabulary', body: dataset.searchVocabulary },
      { name: 'rules', body: dataset.rules },
    ],
  };
}

function synonymsFromRows(rows: Row[]): SynonymSet {
  const set: SynonymSet = { families: [], equivalents: [], expansions: [] };
  for (const r of rows) {
    const expressions = json(r.expressions) as string[];
    if (r.kind === 'family') set.families.push(expressions);
    else if (r.kind === 'equivalent') set.equivalents.push(expressions);
    else set.expansions.push({ term: r.term as string, finds: expressions });
  }
  return set;
}

/** Rows must come ordered by position (categories, collections, redirects, items, synonyms). Tools by slug. */
export function rowsToDataset(rows: DatasetRows): Dataset {
  return runAtOnce(datasetSteps(rows));
}

/** rowsToDataset in steps that may pause (src/slices.ts), for a server loading a big revision. */
export function* datasetSteps(rows: DatasetRows): Steps<Dataset> {
  const formerSlugs = new Map<string, string[]>();
  for (const r of rows.redirects) {
    const list = formerSlugs.get(r.tool_slug as string) ?? [];
    list.push(r.old_slug as string);
    formerSlugs.set(r.tool_slug as string, list);
  }
  const items = new Map<string, CollectionRecord['items']>();
  for (const r of rows.items) {
    const list = items.get(r.collection_slug as string) ?? [];
    list.push({ tool: r.tool_slug as string, note: r.note as string });
    items.set(r.collection_slug as string, list);
  }
  const categories: CategoryRecord[] = rows.categories.map((r) => ({ slug: r.slug as string, name: r.name as string, description: r.description as string }));
  const tools: ToolRecord[] = [];
  for (const r of rows.tools) {
    tools.push(toolFromRow(r, formerSlugs));
    if (tools.length % 1000 === 0) yield;
  }
  const collections: CollectionRecord[] = rows.collections.map((r) => ({
    slug: r.slug as string,
    title: r.title as string,
    status: r.status as CollectionRecord['status'],
    kind: r.kind as CollectionRecord['kind'],
    task: (r.task as string | null) ?? null,
    persona: (r.persona as string | null) ?? null,
    description: r.description as string,
    items: items.get(r.slug as string) ?? [],
    created_at: canonicalDate(r.created_at),
    updated_at: canonicalDate(r.updated_at),
  }));
  return { categories, tools, collections, synonyms: synonymsFromRows(rows.synonyms), vocabularies: vocabulariesFromRows(rows.documents),
    // A database written before a list of the vocabulary existed reads it as empty.
    searchVocabulary: { ...EMPTY_SEARCH_VOCABULARY, ...(json(rows.documents.find((r) => r.name === 'search-vocabulary')?.body) as Partial<SearchVocabulary> | undefined) },
    // A database written before the rules existed has none: every answer is then unknown.
    rules: (json(rows.documents.find((r) => r.name === 'rules')?.body) as PupilRuleSet[] | undefined) ?? [] };
}

function toolFromRow(r: Row, formerSlugs: ReadonlyMap<string, string[]>): ToolRecord {
  return {
    slug: r.slug as string,
    name: r.name as string,
    status: r.status as ToolRecord['status'],
    category: r.category_slug as string,
    website_url: r.website_url as string,
    logo_url: (r.logo_url as string | null) ?? null,
    short_description: r.short_description as string,
    long_description: r.long_description as string,
    pricing: {
      model: r.pricing_model as ToolRecord['pricing']['model'],
      summary: r.pricing_summary as string,
      starting_price: json(r.starting_price) ?? null,
      url: (r.pricing_url as string | null) ?? null,
    },
    education_program: json(r.education_program) ?? null,
    screenshot: screenshotFromRow(json(r.screenshot)),
    tags: json(r.tags),
    platforms: json(r.platforms),
    languages: json(r.languages),
    former_slugs: formerSlugs.get(r.slug as string) ?? [],
    created_at: canonicalDate(r.created_at),
    updated_at: canonicalDate(r.updated_at),
    last_verified_at: canonicalDateOrNull(r.last_verified_at),
    links_checked_at: canonicalDateOrNull(r.links_checked_at),
    link_status: (r.link_status as ToolRecord['link_status'] | null) ?? null,
    link_redirects: json(r.link_redirects) ?? {},
    // A store written before migration 6 knows no school fact.
    school: json(r.school) ?? unknownSchoolFacts(),
  };
}

function vocabulariesFromRows(rows: Row[]): SchoolVocabularies {
  const body = (name: string) => json(rows.find((r) => r.name === name)?.body) ?? [];
  return { levels: body('levels'), subjects: body('subjects') };
}

/** A screenshot column as written before migration 5 had a `url` and no file: none is hosted. */
function screenshotFromRow(value: unknown): ToolRecord['screenshot'] {
  if (value === null || value === undefined || typeof (value as { file?: unknown }).file !== 'string') return null;
  const shot = value as NonNullable<ToolRecord['screenshot']>;
  return { ...shot, captured_at: canonicalDate(shot.captured_at) };
}
