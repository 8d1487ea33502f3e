/**
 * Facet counts for GET /tools?facets=…: per facet, how many tools of the current query
 * (search included) each value would give. Disjunctive, as Algolia and Meilisearch
 * document it: each facet is counted with every *other* active filter applied and its own
 * ignored, so a client can show how many tools choosing one more category would add.
 * Each count is one AND-and-count over bitsets (N/32 words), whatever the number of matches.
 *
 * Values and their order:
 * - `category`: the categories that count at least one tool, plus any selected one (even
 *   at 0), by count (highest first), ties in French collation of the name;
 * - `pricing`: all four models, always, in their order (free, freemium, paid, enterprise);
 * - `has_education_pricing`: one value, `true` (`has_education_pricing=1` selects it;
 *   `0` is no restriction, so there is no `false` to select);
 * - `level`, `subject`: the vocabulary's entries that count at least one tool, plus any
 *   selected one, in the vocabulary's order;
 * - the other school facts: every value, always, in the contract's order (`true`, `false`
 *   for `offline` and `open_source`). A tool whose fact is unknown counts for no value.
 */
import { PRICING_LABELS, PRICING_MODELS, type PricingModel } from '../domain.js';
import type { Bitset } from '../bitset.js';
import { filterSets, intersectAll, otherSets, searchMatches, type FilterSets, type ToolsQuery } from './list-tools.js';
import { ATTRIBUTE_FILTERS, NO_SCHOOL_QUERY, SCHOOL_BOOLEANS, SCHOOL_ENUMS, SCHOOL_FILTERS, SCHOOL_VALUE_LABELS, type SchoolFilter } from './school-filters.js';
import { languageLabel, PLATFORM_LABELS, PLATFORMS } from '../domain.js';
import type { ReadModel } from './read-model.js';
import type { VocabularyIndex } from '../school/vocabulary.js';

export const FACET_NAMES = ['category', 'pricing', 'has_education_pricing', ...SCHOOL_FILTERS, ...ATTRIBUTE_FILTERS] as const;
export type FacetName = (typeof FACET_NAMES)[number];

export interface FacetValue<V> {
  value: V;
  /** French, for people: the category's name, « Gratuit », « Avec offre éducation »… */
  label: string;
  count: number;
  /** Whether the query's own filter selects this value. */
  selected: boolean;
}

export interface Facets {
  category?: Array<FacetValue<string>>;
  pricing?: Array<FacetValue<PricingModel>>;
  has_education_pricing?: Array<FacetValue<boolean>>;
  level?: Array<FacetValue<string>>;
  subject?: Array<FacetValue<string>>;
  pupil_use?: Array<FacetValue<string>>;
  pupil_account?: Array<FacetValue<string>>;
  generative_ai?: Array<FacetValue<string>>;
  trains_on_user_data?: Array<FacetValue<string>>;
  data_location?: Array<FacetValue<string>>;
  institutional_access?: Array<FacetValue<string>>;
  offline?: Array<FacetValue<boolean>>;
  open_source?: Array<FacetValue<boolean>>;
  platform?: Array<FacetValue<string>>;
  language?: Array<FacetValue<string>>;
  tag?: Array<FacetValue<string>>;
}

export const EDUCATION_LABEL = 'Avec offre éducation';

const countIn = (base: Bitset | null, set: Bitset) => (base === null ? set.count() : base.countAnd(set));

export function facetCounts(model: ReadModel, query: ToolsQuery, names: readonly FacetName[]): Facets {
  const sets = filterSets(model, query);
  const search = searchMatches(model, query);
  // A facet whose own filter is not active counts among what every filter and the search keep:
  // one intersection for all of them (most facets of a page), built on first use.
  let shared: Bitset | null | undefined;
  const baseFor = (own: keyof FilterSets) =>
    sets[own] !== null ? intersectAll([...otherSets(sets, own), search]) : shared === undefined ? (shared = intersectAll([...Object.values(sets), search])) : shared;
  const facets: Facets = {};
  if (names.includes('category')) {
    const base = baseFor('category');
    const listed: Array<FacetValue<string>> = [];
    for (let ci = 0; ci < model.categories.length; ci++) {
      const { record } = model.categories[ci]!;
      const count = countIn(base, model.byCategory[ci]!);
      const selected = query.categories?.includes(record.slug) ?? false;
      if (count > 0 || selected) listed.push({ value: record.slug, label: record.name, count, selected });
    }
    // Stable: equal counts keep the model's French collation order.
    facets.category = listed.sort((a, b) => b.count - a.count);
  }
  if (names.includes('pricing')) {
    const base = baseFor('pricing');
    facets.pricing = PRICING_MODELS.map((pricing, p) => ({
      value: pricing,
      label: PRICING_LABELS[pricing],
      count: countIn(base, model.byPricing[p]!),
      selected: query.pricing?.includes(pricing) ?? false,
    }));
  }
  if (names.includes('has_education_pricing')) {
    const base = baseFor('education');
    facets.has_education_pricing = [{ value: true, label: EDUCATION_LABEL, count: countIn(base, model.withEducation), selected: query.educationOnly }];
  }
  const school = query.school ?? NO_SCHOOL_QUERY;
  // A school or attribute facet counts each candidate value among the tools the other filters
  // keep (`base`): every candidate when `always`, else those with a tool or selected.
  const valuesOf = (filter: SchoolFilter | (typeof ATTRIBUTE_FILTERS)[number], candidates: readonly string[], label: (value: string) => string, always: boolean, base: Bitset | null) => {
    const valueSets = model.school.sets[filter];
    const selected = school.values[filter] ?? [];
    const listed: Array<FacetValue<string>> = [];
    for (const value of candidates) {
      const set = valueSets.get(value);
      const count = set === undefined ? 0 : countIn(base, set);
      const chosen = selected.includes(value);
      if (always || count > 0 || chosen) listed.push({ value, label: label(value), count, selected: chosen });
    }
    return listed;
  };
  for (const filter of SCHOOL_FILTERS) {
    if (!names.includes(filter)) continue;
    const base = baseFor(filter);
    if (filter === 'level' || filter === 'subject') {
      const vocabulary = filter === 'level' ? model.school.levels : model.school.subjects;
      facets[filter] = valuesOf(filter, vocabularySlugs(vocabulary), (slug) => vocabulary.entries[vocabulary.position.get(slug)!]!.label, false, base);
    } else if ((SCHOOL_BOOLEANS as readonly string[]).includes(filter)) {
      facets[filter as 'offline' | 'open_source'] = valuesOf(filter, BOOLEAN_VALUES, (v) => SCHOOL_VALUE_LABELS[v]!, true, base).map((v) => ({ ...v, value: v.value === 'true' }));
    } else {
      facets[filter as Exclude<SchoolFilter, 'level' | 'subject' | 'offline' | 'open_source'>] = valuesOf(filter, SCHOOL_ENUMS[filter as keyof typeof SCHOOL_ENUMS], (v) => SCHOOL_VALUE_LABELS[v]!, true, base);
    }
  }
  for (const filter of ATTRIBUTE_FILTERS) {
    if (!names.includes(filter)) continue;
    const base = baseFor(filter);
    // Platforms: all eight, in their order; languages and tags: those with a tool (or selected),
    // most first (none has a tool when the other filters keep none: only the selected ones).
    const none = base !== null && base.isEmpty();
    const label = (value: string) => attributeLabel(filter, value);
    facets[filter] =
      filter === 'platform'
        ? valuesOf(filter, PLATFORMS, label, true, base)
        : valuesOf(filter, withSelected(none ? [] : sortedKeys(model.school.sets[filter]), school.values[filter] ?? []), label, false, base).sort((a, b) => b.count - a.count);
  }
  return facets;
}

const BOOLEAN_VALUES = ['true', 'false'] as const;

/** A vocabulary's slugs in its order, listed once per vocabulary. */
const SLUGS = new WeakMap<VocabularyIndex, readonly string[]>();
function vocabularySlugs(vocabulary: VocabularyIndex): readonly string[] {
  let slugs = SLUGS.get(vocabulary);
  if (slugs === undefined) SLUGS.set(vocabulary, (slugs = vocabulary.entries.map((e) => e.slug)));
  return slugs;
}

/** A value map's keys in code-unit order, sorted once per map (the read model's maps do not change). */
const SORTED_KEYS = new WeakMap<ReadonlyMap<string, unknown>, readonly string[]>();
function sortedKeys(values: ReadonlyMap<string, unknown>): readonly string[] {
  let keys = SORTED_KEYS.get(values);
  if (keys === undefined) SORTED_KEYS.set(values, (keys = [...values.keys()].sort()));
  return keys;
}

/** `sorted` with the selected values it lacks, in the same order. */
function withSelected(sorted: readonly string[], selected: readonly string[]): readonly string[] {
  const missing = selected.filter((v) => !sorted.includes(v));
  return missing.length === 0 ? sorted : [...new Set([...sorted, ...missing])].sort();
}

function attributeLabel(filter: 'platform' | 'language' | 'tag', value: string): string {
  if (filter === 'platform') return PLATFORM_LABELS[value as keyof typeof PLATFORM_LABELS] ?? value;
  if (filter === 'tag') return value;
  return languageLabel(value);
}
