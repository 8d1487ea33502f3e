/**
 * The in-memory read model: everything a request needs, built once per data revision from a
 * store snapshot, then only read. Drafts are left out here, so no route can leak them.
 * A new revision builds a new model that replaces the old one in a single assignment.
 */
import { bestCase, defaultRules, forPupils, YOUNGEST } from '../school/for-pupils.js';
import type { CategoryRecord, CollectionRecord, ForPupilsBand, PupilRuleSet, Snapshot, ToolChange, ToolRecord } from '../domain.js';
import { PRICING_MODELS, COLLECTION_KINDS } from '../domain.js';
import { SearchIndex } from '../search/search-index.js';
import { ageFilterSet, buildSchoolIndex, factSet, type SchoolIndex } from './school-filters.js';
import { logoFor, type ServedLogo } from '../logos/simple-icons.js';
import { Bitset } from '../bitset.js';
import { runAtOnce, sortInSlices, type Steps } from '../slices.js';

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
  /** The search over names and short descriptions, for `q`. */
  readonly search: SearchIndex;
  /** Tools per category index, per pricing model (PRICING_MODELS order), with an education program. */
  readonly byCategory: readonly Bitset[];
  readonly byPricing: readonly Bitset[];
  readonly withEducation: Bitset;
  /** The school vocabularies and a set per value of each school fact (school-filters.ts). */
  readonly school: SchoolIndex;
  /** Per tool, "can my pupils use it?" by age band, from its facts and the default rules (school/for-pupils.ts). */
  readonly forPupils: ReadonlyArray<readonly ForPupilsBand[]>;
  /** The rules the answers were computed with, every country's (GET /rules). */
  readonly rules: readonly PupilRuleSet[];
  /** Per tool, the logo this server serves for it (logos/simple-icons.ts), or null. */
  readonly logos: ReadonlyArray<ServedLogo | null>;
  /** Served logo file name → tool index. */
  readonly logoFiles: ReadonlyMap<string, number>;
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

/** The read model of a snapshot, built at once (start-up, tests). */
export function buildReadModel(snapshot: Snapshot): ReadModel {
  return runAtOnce(readModelSteps(snapshot));
}

/** The read model of a snapshot, in steps that may pause (slices.ts): how a server builds the next one. */
export function* readModelSteps(snapshot: Snapshot): Steps<ReadModel> {
  const { dataset } = snapshot;
  const tools = dataset.tools.filter((t) => t.status === 'published');
  yield* sortInSlices(tools, (a, b) => collator.compare(a.name, b.name) || bySlug(a, b));
  const toolIndex = new Map<string, number>();
  const redirects = new Map<string, string>();
  const counts = new Map<string, number>();
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    toolIndex.set(t.slug, i);
    for (const old of t.former_slugs) redirects.set(old, t.slug);
    counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
    if (i % 5000 === 4999) yield;
  }
  const categories = dataset.categories
    .map((record) => ({ record, toolCount: counts.get(record.slug) ?? 0 }))
    .sort((a, b) => collator.compare(a.record.name, b.record.name) || bySlug(a.record, b.record));
  const categoryIndex = new Map(categories.map((c, i) => [c.record.slug, i]));
  yield;

  const n = tools.length;
  const categoryOf = new Int32Array(n);
  const byCategory = categories.map(() => new Bitset(n));
  const byPricing = PRICING_MODELS.map(() => new Bitset(n));
  const withEducation = new Bitset(n);
  tools.forEach((t, i) => {
    categoryOf[i] = categoryIndex.get(t.category) ?? -1;
    byCategory[categoryOf[i]!]?.add(i);
    byPricing[PRICING_MODELS.indexOf(t.pricing.model)]!.add(i);
    if (t.education_program) withEducation.add(i);
  });
  yield;

  function* newestFirst(field: 'updated_at' | 'created_at'): Steps<Int32Array> {
    const order = [...tools.keys()];
    yield* sortInSlices(order, (a, b) => {
      const x = tools[a]![field];
      const y = tools[b]![field];
      return x < y ? 1 : x > y ? -1 : a - b;
    });
    return Int32Array.from(order);
  }
  const byUpdatedDesc = yield* newestFirst('updated_at');
  const byCreatedDesc = yield* newestFirst('created_at');

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
  yield;

  const rules = defaultRules(dataset.rules);
  // Without rules (a store written before they existed) every answer is unknown.
  const pupilBands = tools.map((t): ForPupilsBand[] => (rules ? forPupils(t.school, rules) : [{ from: YOUNGEST, to: null, answer: 'unknown', reasons: [] }]));
  // What each tool could answer at best once its unknown facts are read (for the `unknown` the age filter keeps).
  const bestBands = tools.map((t, i): readonly ForPupilsBand[] => (rules ? forPupils(bestCase(t.school), rules) : pupilBands[i]!));
  const school = buildSchoolIndex(tools, dataset.vocabularies, pupilBands, bestBands);
  yield;
  // A logo of our own only where the content names none.
  const logos = tools.map((t) => (t.logo_url === null ? logoFor(t) : null));
  yield;
  const search = yield* SearchIndex.build(
    tools.map((t, i) => ({
      name: t.name,
      description: t.short_description,
      category: categories[categoryOf[i]!]?.record.name,
      tags: t.tags,
      // What it is and does in English (content/search-english.yaml): found as its long description is.
      long: [t.long_description, dataset.searchVocabulary.english[t.slug] ?? ''].join('\n\n'),
      levels: t.school.levels,
      subjects: t.school.subjects,
      pricing: t.pricing.model,
    })),
    dataset.synonyms,
    { levels: school.levels, subjects: school.subjects, searchVocabulary: dataset.searchVocabulary, factSets: dataset.searchVocabulary.schoolFacts.map((f) => factSet(school, f.filter, n)), ageSet: (age, answers) => ageFilterSet(school, age, answers) },
  );
  return {
    revision: snapshot.revision,
    loadedAt: new Date(),
    tools,
    toolIndex,
    redirects,
    categories,
    categoryIndex,
    categoryOf,
    search,
    byCategory,
    byPricing,
    withEducation,
    school,
    forPupils: pupilBands,
    rules: dataset.rules,
    logos,
    logoFiles: new Map(logos.flatMap((l, i) => (l ? [[l.file, i] as const] : []))),
    byUpdatedDesc,
    updatedDescTimes: Float64Array.from(byUpdatedDesc, (i) => Date.parse(tools[i]!.updated_at)),
    byCreatedDesc,
    collections,
    collectionIndex: new Map(collections.map((c, i) => [c.record.slug, i])),
    toolCollections,
    changes: snapshot.changes,
    changeTimes: Float64Array.from(snapshot.changes, (c) => Date.parse(c.at)),
  };
}
