/**
 * GET /tools as a pure function of (read model, normalised query): which tools match, in
 * which order, and which of them fall on the requested page. Filters are bitsets, the search
 * (src/search/search-index.ts) gives a set and an order kept per distinct query, so a page
 * costs the directory size divided by 32 plus a walk of the order up to the page.
 */
import type { PricingModel } from '../domain.js';
import { PRICING_MODELS } from '../domain.js';
import type { SearchResult } from '../search/search-index.js';
import { Memo } from '../memo.js';
import { Bitset } from '../bitset.js';
import type { ReadModel } from './read-model.js';
import { NO_SCHOOL_QUERY, VALUE_FILTERS, schoolFilterSet, schoolQueryKey, type SchoolFilter, type SchoolQuery } from './school-filters.js';

export type ToolSort = 'name' | '-updated_at' | '-created_at' | 'relevance';

export interface ToolsQuery {
  page: number;
  perPage: number;
  categories: readonly string[] | null;
  pricing: readonly PricingModel[] | null;
  educationOnly: boolean;
  /** The search text (NFC, single spaces), or null for no search. */
  q: string | null;
  sort: ToolSort;
  /**
   * `updated_since`: only tools updated (or created: `created_at` ≤ `updated_at`) at or
   * after this instant, in ms since the epoch. Absent or null: no restriction.
   */
  updatedSince?: number | null;
  /** The school filters (level, subject, age…); absent: none. */
  school?: SchoolQuery;
}

export interface ToolsPage {
  total: number;
  /** Indices into `model.tools`, for the requested page only. */
  items: number[];
}

export function listTools(model: ReadModel, query: ToolsQuery): ToolsPage {
  const start = (query.page - 1) * query.perPage;
  const filters = filterSet(model, query);
  const found = search(model, query);
  const matches = found === null ? filters : filters === null ? found.set : filters.and(found.set);
  const total = matches === null ? model.tools.length : matches.count();
  if (start >= total) return { total, items: [] };
  const end = Math.min(total, start + query.perPage);

  if (query.sort === 'relevance' && found !== null) return { total, items: inOrder(found.ranked, filters, start, end) };
  if (query.sort === '-updated_at' || query.sort === '-created_at') {
    return { total, items: inOrder(query.sort === '-updated_at' ? model.byUpdatedDesc : model.byCreatedDesc, matches, start, end) };
  }
  // Name order is index order.
  if (matches === null) return { total, items: Array.from({ length: end - start }, (_, k) => start + k) };
  return { total, items: matches.slice(start, end - start) };
}

/** Positions [start, end) of `order` once restricted to `members` (null: all). */
function inOrder(order: ArrayLike<number>, members: Bitset | null, start: number, end: number): number[] {
  const items: number[] = [];
  let seen = 0;
  for (let k = 0; k < order.length && items.length < end - start; k++) {
    const i = order[k]!;
    if (members !== null && !members.has(i)) continue;
    if (seen++ >= start) items.push(i);
  }
  return items;
}

/** What the search (`q`) finds, or null when there is no search. */
function search(model: ReadModel, query: ToolsQuery): SearchResult | null {
  const school = query.school;
  // An age filter keeping tools of unknown answer ranks those known to suit it first among equals (search-index.ts).
  const age = school?.age != null && school.forPupils?.includes('unknown') ? { age: school.age, answers: school.forPupils } : null;
  return query.q === null ? null : model.search.search(query.q, age);
}

/**
 * The tools that the search (`q`) matches, or null when there is no search. The list and
 * the facets (facets.ts) both ask the search through this one function.
 */
export function searchMatches(model: ReadModel, query: ToolsQuery): Bitset | null {
  return search(model, query)?.set ?? null;
}

/** Each active filter's own set of tools; null where the filter is not active. */
export type FilterSets = Record<'category' | 'pricing' | 'education' | 'updated' | SchoolFilter | 'age', Bitset | null>;

/** The sets of every filter but `but` (facets count each facet without its own filter). */
export function otherSets(sets: FilterSets, but: keyof FilterSets): Array<Bitset | null> {
  return (Object.keys(sets) as Array<keyof FilterSets>).filter((k) => k !== but).map((k) => sets[k]);
}

// Filter sets repeat a lot (a few categories × pricing × education × a sync instant): keep
// them per model, in a memo that starts again from empty past 1,000 entries.
const filterMemo = new WeakMap<ReadModel, Memo<string, Bitset | null>>();

function memoized(model: ReadModel, key: string, build: () => Bitset | null): Bitset | null {
  let memo = filterMemo.get(model);
  if (!memo) filterMemo.set(model, (memo = new Memo(1_000)));
  return memo.get(key, build);
}

/**
 * How many tools were updated at or after `since`: a binary search in the updated-at
 * order, so the set below is that order's first `rank` tools.
 */
function updatedRank(model: ReadModel, since: number): number {
  const times = model.updatedDescTimes;
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! >= since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function filterSets(model: ReadModel, query: ToolsQuery): FilterSets {
  const n = model.tools.length;
  const { categories, pricing } = query;
  const rank = query.updatedSince == null ? null : updatedRank(model, query.updatedSince);
  const school = query.school ?? NO_SCHOOL_QUERY;
  // Built key by key in one order (not spread from another object): one shape for every query.
  const sets = {
    category: categories
      ? memoized(model, `c ${categories.join(',')}`, () => {
          const sets = categories.flatMap((slug) => {
            const ci = model.categoryIndex.get(slug);
            return ci === undefined ? [] : [model.byCategory[ci]!];
          });
          return sets.length === 0 ? new Bitset(n) : sets.reduce((a, b) => a.or(b));
        })
      : null,
    pricing: pricing ? memoized(model, `p ${pricing.join(',')}`, () => pricing.map((p) => model.byPricing[PRICING_MODELS.indexOf(p)]!).reduce((a, b) => a.or(b))) : null,
    education: query.educationOnly ? model.withEducation : null,
    updated:
      rank === null
        ? null
        : memoized(model, `u ${rank}`, () => {
            const set = new Bitset(n);
            set.addAll(model.byUpdatedDesc.subarray(0, rank));
            return set;
          }),
  } as FilterSets;
  for (const f of VALUE_FILTERS) sets[f] = schoolFilterSet(model.school, school, f, n);
  sets.age = schoolFilterSet(model.school, school, 'age', n);
  return sets;
}

/** The intersection of the given sets; null (everything) when none is given. */
export function intersectAll(sets: ReadonlyArray<Bitset | null>): Bitset | null {
  let out: Bitset | null = null;
  for (const set of sets) if (set !== null) out = out === null ? set : out.and(set);
  return out;
}

/** The tools every filter keeps (null: no filter), built once per distinct set of filters. */
function filterSet(model: ReadModel, query: ToolsQuery): Bitset | null {
  const school = query.school ?? NO_SCHOOL_QUERY;
  // No filter at all (a plain search, a plain list): nothing to build or look up.
  if (query.categories === null && query.pricing === null && !query.educationOnly && query.updatedSince == null && school === NO_SCHOOL_QUERY) return null;
  const rank = query.updatedSince == null ? '*' : updatedRank(model, query.updatedSince);
  const key = `f ${query.categories?.join(',') ?? '*'}|${query.pricing?.join(',') ?? '*'}|${query.educationOnly}|${rank}|${schoolQueryKey(school)}`;
  // The sets are looked for only when the intersection is not kept already.
  return memoized(model, key, () => intersectAll(Object.values(filterSets(model, query))));
}
