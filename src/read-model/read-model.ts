/**
 * The in-memory read model: everything a request needs, built once per data revision from a
 * store snapshot, then only read. Drafts are left out here, so no route can leak them.
 * A new revision builds a new model that replaces the old one in a single assignment.
 */
import type { CategoryRecord, CollectionRecord, Snapshot, ToolChange, ToolRecord } from '../domain.js';
import { PRICING_MODELS, COLLECTION_KINDS } from '../domain.js';
import { foldFrench } from '../text/french-text.js';
import { Bitset } from './bitset.js';
import { WordIndex } from './word-index.js';

export interface CategoryView {
  record: CategoryRecord;
  toolCount: number;
}

export interface CollectionView {
  record: CollectionRecord;
  /** Published tools only, positions renumbered from 1 in editorial order. */
  items: Array<{ position: number; note: string; tool: number }>;
}

export interface ReadModel {
  readonly revision: number;
  readonly loadedAt: Date;
  /** Published tools, in French collation order of name, ties by slug: index = name rank. */
  readonly tools: readonly ToolRecord[];
  readonly toolIndex: ReadonlyMap<string, number>;
  /** Former slug → current slug, for published tools. */
  readonly redirects: ReadonlyMap<string, string>;
  /** Categories in French collation order of name, with published-tool counts. */
  readonly categories: readonly CategoryView[];
  readonly categoryIndex: ReadonlyMap<string, number>;
  readonly categoryOf: Int32Array;
  readonly foldedNames: readonly string[];
  /** Folded name + short description, for `q`. */
  readonly search: WordIndex;
  /** Folded name alone, for ranking. */
  readonly nameSearch: WordIndex;
  /** Tools per category index, per pricing model (PRICING_MODELS order), with an education program. */
  readonly byCategory: readonly Bitset[];
  readonly byPricing: readonly Bitset[];
  readonly withEducation: Bitset;
  readonly byUpdatedDesc: Int32Array;
  /** `updated_at` of `byUpdatedDesc[k]` in ms, for `updated_since` (a binary search, not a scan). */
  readonly updatedDescTimes: Float64Array;
  readonly byCreatedDesc: Int32Array;
  /** Published collections, ordered by kind (top, then stack) then title. */
  readonly collections: readonly CollectionView[];
  readonly collectionIndex: ReadonlyMap<string, number>;
  /** For each tool, the indices of the published collections that include it. */
  readonly toolCollections: ReadonlyArray<readonly number[]>;
  /** The change log, oldest first; only ever names what was public (store/change-log.ts). */
  readonly changes: readonly ToolChange[];
  /** `at` of `changes[k]` in ms, never decreasing, for `since`. */
  readonly changeTimes: Float64Array;
}

const collator = new Intl.Collator('fr');
const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

export function buildReadModel(snapshot: Snapshot): ReadModel {
  const { dataset } = snapshot;
  const tools = dataset.tools
    .filter((t) => t.status === 'published')
    .sort((a, b) => collator.compare(a.name, b.name) || bySlug(a, b));
  const toolIndex = new Map(tools.map((t, i) => [t.slug, i]));

  const redirects = new Map<string, string>();
  for (const t of tools) for (const old of t.former_slugs) redirects.set(old, t.slug);

  const counts = new Map<string, number>();
  for (const t of tools) counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
  const categories = dataset.categories
    .map((record) => ({ record, toolCount: counts.get(record.slug) ?? 0 }))
    .sort((a, b) => collator.compare(a.record.name, b.record.name) || bySlug(a.record, b.record));
  const categoryIndex = new Map(categories.map((c, i) => [c.record.slug, i]));

  const n = tools.length;
  const categoryOf = new Int32Array(n);
  const byCategory = categories.map(() => new Bitset(n));
  const byPricing = PRICING_MODELS.map(() => new Bitset(n));
  const withEducation = new Bitset(n);
  const foldedNames: string[] = new Array(n);
  const searchTexts: string[] = new Array(n);
  tools.forEach((t, i) => {
    categoryOf[i] = categoryIndex.get(t.category) ?? -1;
    byCategory[categoryOf[i]!]?.add(i);
    byPricing[PRICING_MODELS.indexOf(t.pricing.model)]!.add(i);
    if (t.education_program) withEducation.add(i);
    foldedNames[i] = foldFrench(t.name);
    searchTexts[i] = `${foldedNames[i]} ${foldFrench(t.short_description)}`;
  });

  const newestFirst = (field: 'updated_at' | 'created_at') =>
    Int32Array.from(tools.keys()).sort((a, b) => {
      const x = tools[a]![field];
      const y = tools[b]![field];
      return x < y ? 1 : x > y ? -1 : a - b;
    });

  const collections: CollectionView[] = dataset.collections
    .filter((c) => c.status === 'published')
    .sort((a, b) => COLLECTION_KINDS.indexOf(a.kind) - COLLECTION_KINDS.indexOf(b.kind) || collator.compare(a.title, b.title) || bySlug(a, b))
    .map((record) => {
      const items: CollectionView['items'] = [];
      for (const item of record.items) {
        const tool = toolIndex.get(item.tool);
        if (tool !== undefined) items.push({ position: items.length + 1, note: item.note, tool });
      }
      return { record, items };
    });
  const toolCollections: number[][] = Array.from({ length: n }, () => []);
  collections.forEach((c, ci) => {
    for (const item of c.items) toolCollections[item.tool]!.push(ci);
  });

  const byUpdatedDesc = newestFirst('updated_at');
  return {
    revision: snapshot.revision,
    loadedAt: new Date(),
    tools,
    toolIndex,
    redirects,
    categories,
    categoryIndex,
    categoryOf,
    foldedNames,
    search: new WordIndex(searchTexts),
    nameSearch: new WordIndex(foldedNames),
    byCategory,
    byPricing,
    withEducation,
    byUpdatedDesc,
    updatedDescTimes: Float64Array.from(byUpdatedDesc, (i) => Date.parse(tools[i]!.updated_at)),
    byCreatedDesc: newestFirst('created_at'),
    collections,
    collectionIndex: new Map(collections.map((c, i) => [c.record.slug, i])),
    toolCollections,
    changes: snapshot.changes,
    changeTimes: Float64Array.from(snapshot.changes, (c) => Date.parse(c.at)),
  };
}
