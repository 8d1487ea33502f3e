/**
 * The one query layer: what a read of the directory answers, as the public representation
 * (src/schemas), from a read model, a normalised query and the base of absolute links.
 * The REST routes (http/routes) serialise these bodies and add HTTP around them; the MCP
 * tools (mcp/directory-tools.ts) return them as structured content. A refusal is a
 * ProblemError from the one catalogue (problems.ts), whichever door it leaves by.
 */
import type { VocabularyIndex } from '../school/vocabulary.js';
import { COLLECTION_KINDS, type CollectionKind } from '../domain.js';
import { listTools } from '../read-model/list-tools.js';
import type { ReadModel } from '../read-model/read-model.js';
import type { CategoryList } from '../schemas/categories.js';
import type { ToolList } from '../schemas/tools.js';
import { closest } from '../text/french-text.js';
import { pageLinks } from './pagination.js';
import { MESSAGES } from './messages.js';
import { ProblemError, type ParameterError } from './problems.js';
import { MAX_SLUG_LENGTH, refuseIfAny, single, SLUG, withSuggestion, type RawQuery } from './query-parameters.js';
import { API_PREFIX, collectionDetail, collectionSummary, toolDetail, toolSummary, type License, type ToolsPageParts } from './representations.js';
import { canonicalToolsQuery, type ParsedToolsQuery } from './tools-query.js';
import { facetCounts } from '../read-model/facets.js';
import { textWithout } from '../search/analyzer.js';
import type { UnderstoodQuery } from '../search/search-index.js';

/** A page of GET /tools: the body of the response, links included. */
export function toolsPage(model: ReadModel, query: ParsedToolsQuery, base: string, license: License): ToolList {
  const { items, meta, links } = toolsPageParts(model, query, base, license);
  return { data: items.map((i) => toolSummary(model, i, base)), meta, links };
}

/**
 * The same page with its tools as read-model indices rather than summaries: what the REST
 * route joins from summaries serialised once (ToolListJson), without building 30 objects
 * it would not read.
 */
export function toolsPageParts(model: ReadModel, query: ParsedToolsQuery, base: string, license: License): ToolsPageParts {
  const page = listTools(model, query);
  const totalPages = Math.ceil(page.total / query.perPage);
  const links = pageLinks((p) => `${base}${API_PREFIX}/tools?${canonicalToolsQuery(query, p)}`, query.page, totalPages);
  const facets = query.facets.length > 0 ? facetCounts(model, query, query.facets) : undefined;
  return {
    items: page.items,
    meta: { page: query.page, per_page: query.perPage, total: page.total, total_pages: totalPages, license, facets, ...queryMeta(model, query, page.total, base, categoryWarnings(model, query)) },
    links,
  };
}

/**
 * An unknown category still answers 200 with no tools of it (the v1 contract), and says so
 * in `meta.warnings`, with the nearest category's slug; absent when every slug is known.
 */
function categoryWarnings(model: ReadModel, query: ParsedToolsQuery): ToolList['meta']['warnings'] {
  const unknown = (query.categories ?? []).filter((slug) => !model.categoryIndex.has(slug));
  if (unknown.length === 0) return undefined;
  return unknown.map((value) => {
    const suggestion = closest(value.slice(0, 40), model.categoryIndex.keys(), 1)[0];
    return {
      code: 'unknown_category',
      parameter: 'category',
      value,
      message: `Aucune catégorie n’a le slug « ${value} » : ce filtre ne garde aucun outil.${suggestion ? ` Vouliez-vous dire « ${suggestion} » ?` : ''} Les catégories : /categories.`,
      ...(suggestion ? { suggestion } : {}),
    };
  });
}

/**
 * `meta.query` and `meta.warnings`: what the search read in `q`, and, when `q` states
 * constraints (free, school facts, the pupils' age: filters), the same search without them,
 * with a warning when they keep nothing the search found.
 */
function queryMeta(model: ReadModel, query: ParsedToolsQuery, total: number, base: string, warnings: ToolList['meta']['warnings']): Pick<ToolList['meta'], 'query' | 'warnings'> {
  const reading = queryReading(model, query.q);
  if (reading === undefined || query.q === null) return { query: reading, warnings };
  const without = withoutConstraints(model, query);
  if (without === null) return { query: reading, warnings };
  reading.without_constraints = { ...without, href: `${base}${API_PREFIX}/tools?${canonicalToolsQuery({ ...query, q: without.q === '' ? null : without.q }, 1)}` };
  if (total > 0 || without.total === 0) return { query: reading, warnings };
  const unmet = { code: 'constraints_unmet', parameter: 'q', value: query.q, message: constraintsUnmet(constraintLabels(reading), without.q, without.total) };
  return { query: reading, warnings: [...(warnings ?? []), unmet] };
}

/** French, for people: what the warning `constraints_unmet` says. */
function constraintsUnmet(labels: readonly string[], q: string, total: number): string {
  const listed = labels.map((l) => `« ${l} »`).join(', ');
  const search = q === '' ? 'sans recherche' : `avec la recherche « ${q} »`;
  return `Aucun des outils que trouve cette recherche ne remplit ${labels.length > 1 ? 'les conditions' : 'la condition'} ${listed}. Sans ${labels.length > 1 ? 'elles' : 'elle'}, ${search} : ${total} outil${total > 1 ? 's' : ''}.`;
}

/** The constraints a reading states, as French labels (« gratuit », « hors ligne », « élèves de 12 ans »). */
export function constraintLabels(reading: NonNullable<ToolList['meta']['query']>): string[] {
  return [...(reading.free ? ['gratuit'] : []), ...reading.facts.map((f) => f.label), ...(reading.age === null ? [] : [`élèves de ${reading.age} ans`])];
}

/**
 * When `q` states constraints: the query without their words, and how many tools it finds
 * with the request's other parameters (what a client offers when the constraints keep nothing).
 */
export function withoutConstraints(model: ReadModel, query: ParsedToolsQuery): { q: string; total: number } | null {
  if (query.q === null) return null;
  const { constraintWords } = model.search.search(query.q).understood;
  if (constraintWords.length === 0) return null;
  let q = textWithout(query.q, constraintWords);
  // Words that leave nothing to search (« tools for »): the search without constraints is no search.
  if (q !== '' && searchesNothing(model.search.search(q).understood)) q = '';
  const rest = { ...query, q: q === '' ? null : q, page: 1 };
  return { q, total: listTools(model, rest).total };
}

function searchesNothing(u: UnderstoodQuery): boolean {
  return u.words.length === 0 && u.levels.length === 0 && u.subjects.length === 0 && u.similarTo.length === 0 && u.facts.length === 0 && !u.free && u.age === null;
}

/** `meta.query`: what the search read in `q` (docs/search.md, "Reading a query"); absent without `q`. */
function queryReading(model: ReadModel, q: string | null): ToolList['meta']['query'] {
  if (q === null) return undefined;
  const understood = model.search.search(q).understood;
  const labelled = (slugs: readonly string[], index: VocabularyIndex) =>
    slugs.map((slug) => ({ slug, label: index.entries[index.position.get(slug) ?? -1]?.label ?? slug }));
  return {
    q,
    searched: [...understood.words],
    ignored: [...understood.ignored],
    level: labelled(understood.levels, model.school.levels),
    subject: labelled(understood.subjects, model.school.subjects),
    free: understood.free,
    facts: understood.facts.map(({ label, filter }) => ({ label, filter })),
    age: understood.age,
    for_pupils: understood.forPupils === null ? null : [...understood.forPupils],
    similar_to: understood.similarTo.map((doc) => ({ slug: model.tools[doc]!.slug, name: model.tools[doc]!.name })),
  };
}

/** A published tool by slug (`index`), or the canonical slug of a renamed one (`renamedTo`). */
export type ToolLookup = { index: number; renamedTo?: undefined } | { index?: undefined; renamedTo: string };

/**
 * Finds a published tool. Params arrive percent-decoded (`..%2f` is `../`), so the shape
 * is checked before any lookup; an unknown slug is a 404 problem naming the nearest ones.
 */
export function findTool(model: ReadModel, slug: string): ToolLookup {
  if (slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug)) {
    const index = model.toolIndex.get(slug);
    if (index !== undefined) return { index };
    const renamed = model.redirects.get(slug);
    if (renamed !== undefined) return { renamedTo: renamed };
  }
  throw notFound('tool', slug, model.toolIndex.keys());
}

/** A published tool's index, a renamed slug followed to its tool (where REST answers 301). */
export function resolveTool(model: ReadModel, slug: string): number {
  const found = findTool(model, slug);
  return found.index ?? findTool(model, found.renamedTo).index!;
}

/** The index of a published collection, or the 404 problem naming the nearest slugs. */
export function findCollection(model: ReadModel, slug: string): number {
  const index = slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug) ? model.collectionIndex.get(slug) : undefined;
  if (index === undefined) throw notFound('collection', slug, model.collectionIndex.keys());
  return index;
}

function notFound(what: 'tool' | 'collection', slug: string, known: Iterable<string>): ProblemError {
  const suggestions = closest(slug.toLowerCase().slice(0, MAX_SLUG_LENGTH), known, 3);
  return new ProblemError('not-found', MESSAGES.noSuchSlug(what, slug.slice(0, MAX_SLUG_LENGTH), suggestions), suggestions.length ? { suggestions } : {});
}

/** `media`: the base of screenshot URLs (representations.ts, mediaBaseOf). */
export function toolDetailBody(model: ReadModel, index: number, base: string, license: License, media: string) {
  return { data: toolDetail(model, index, base, media), meta: { license } };
}

/** `kind` of GET /collections: `top`, `stack` (any case) or absent; anything else is a 400. */
export function parseCollectionKind(raw: RawQuery): CollectionKind | null {
  const errors: ParameterError[] = [];
  const text = single(raw, 'kind', errors)?.trim();
  let kind: CollectionKind | null = null;
  if (text !== undefined && text !== '') {
    const lower = text.toLowerCase();
    if ((COLLECTION_KINDS as readonly string[]).includes(lower)) kind = lower as CollectionKind;
    else errors.push(withSuggestion({ parameter: 'kind', value: text, rule: MESSAGES.oneOf(COLLECTION_KINDS, false) }, closest(lower.slice(0, 40), COLLECTION_KINDS, 1)[0]));
  }
  refuseIfAny(errors);
  return kind;
}

export function collectionListBody(model: ReadModel, kind: CollectionKind | null, base: string, license: License) {
  const data = model.collections.flatMap((c, ci) => (kind === null || c.record.kind === kind ? [collectionSummary(model, ci, base)] : []));
  return { data, meta: { total: data.length, license } };
}

export function collectionDetailBody(model: ReadModel, index: number, base: string, license: License) {
  return { data: collectionDetail(model, index, base), meta: { license } };
}

export function categoryListBody(model: ReadModel, base: string, license: License): CategoryList {
  return {
    data: model.categories.map(({ record, toolCount }) => ({
      slug: record.slug,
      name: record.name,
      description: record.description,
      tool_count: toolCount,
      links: { tools: `${base}${API_PREFIX}/tools?category=${record.slug}` },
    })),
    meta: { total: model.categories.length, license },
  };
}
