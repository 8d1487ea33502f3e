/**
 * GET /tools as a pure function of (read model, normalised query): which tools match, in
 * which order, and which of them fall on the requested page. Filters and search words are
 * bitsets, so the cost follows the directory size divided by 32, not the number of matches;
 * only the requested page is put in order.
 */
import type { PricingModel } from '../domain.js';
import { PRICING_MODELS } from '../domain.js';
import { Bitset } from './bitset.js';
import type { ReadModel } from './read-model.js';

export type ToolSort = 'name' | '-updated_at' | '-created_at' | 'relevance';

export interface ToolsQuery {
  page: number;
  perPage: number;
  categories: readonly string[] | null;
  pricing: readonly PricingModel[] | null;
  educationOnly: boolean;
  /** Folded words of `q`; empty when there is no search. */
  words: readonly string[];
  sort: ToolSort;
  /**
   * `updated_since`: only tools updated (or created: `created_at` ≤ `updated_at`) at or
   * after this instant, in ms since the epoch. Absent or null: no restriction.
   */
  updatedSince?: number | null;
}

export interface ToolsPage {
  total: number;
  /** Indices into `model.tools`, for the requested page only. */
  items: number[];
}

export function listTools(model: ReadModel, query: ToolsQuery): ToolsPage {
  const start = (query.page - 1) * query.perPage;
  const matches = matching(model, query);
  const total = matches === null ? model.tools.length : matches.count();
  if (start >= total) return { total, items: [] };
  const end = Math.min(total, start + query.perPage);

  if (query.sort === 'relevance' && query.words.length > 0) return { total, items: byRelevance(model, query.words, matches!, start, end) };
  if (query.sort === '-updated_at' || query.sort === '-created_at') {
    const order = query.sort === '-updated_at' ? model.byUpdatedDesc : model.byCreatedDesc;
    const items: number[] = [];
    let seen = 0;
    for (let k = 0; k < order.length && items.length < end - start; k++) {
      const i = order[k]!;
      if (matches !== null && !matches.has(i)) continue;
      if (seen++ >= start) items.push(i);
    }
    return { total, items };
  }
  // Name order is index order.
  if (matches === null) return { total, items: Array.from({ length: end - start }, (_, k) => start + k) };
  return { total, items: matches.slice(start, end - start) };
}

/** The set of matching tools, or null for "all of them". */
function matching(model: ReadModel, query: ToolsQuery): Bitset | null {
  const filters = filterSet(model, query);
  const found = searchMatches(model, query);
  return found === null ? filters : filters === null ? found : filters.and(found);
}

/**
 * The tools that the search (`q`) matches, or null when there is no search. The list and
 * the facets (facets.ts) both ask the search through this one function.
 */
export function searchMatches(model: ReadModel, query: ToolsQuery): Bitset | null {
  return query.words.length === 0 ? null : model.search.containingAll(query.words);
}

/** Each active filter's own set of tools; null where the filter is not active. */
export interface FilterSets {
  category: Bitset | null;
  pricing: Bitset | null;
  education: Bitset | null;
  updated: Bitset | null;
}

// Filter sets repeat a lot (a few categories × pricing × education × a sync instant): keep
// them per model, in a memo that starts again from empty past 1,000 entries.
const filterMemo = new WeakMap<ReadModel, Map<string, Bitset | null>>();

function memoized(model: ReadModel, key: string, build: () => Bitset | null): Bitset | null {
  let memo = filterMemo.get(model);
  if (!memo) filterMemo.set(model, (memo = new Map()));
  if (memo.has(key)) return memo.get(key)!;
  const set = build();
  if (memo.size >= 1_000) memo.clear();
  memo.set(key, set);
  return set;
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
  return {
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
  };
}

/** The intersection of the given sets; null (everything) when none is given. */
export function intersectAll(sets: ReadonlyArray<Bitset | null>): Bitset | null {
  let out: Bitset | null = null;
  for (const set of sets) if (set !== null) out = out === null ? set : out.and(set);
  return out;
}

function filterSet(model: ReadModel, query: ToolsQuery): Bitset | null {
  const sets = filterSets(model, query);
  const rank = query.updatedSince == null ? '*' : updatedRank(model, query.updatedSince);
  const key = `f ${query.categories?.join(',') ?? '*'}|${query.pricing?.join(',') ?? '*'}|${query.educationOnly}|${rank}`;
  return memoized(model, key, () => intersectAll([sets.category, sets.pricing, sets.education, sets.updated]));
}

/**
 * Exact name, name prefix, every word in the name, then the rest (found through the
 * description); each tier in name order. Only tools whose name holds every word need a
 * closer look; the rest is read from the bitset up to the page.
 */
function byRelevance(model: ReadModel, words: readonly string[], matches: Bitset, start: number, end: number): number[] {
  const inName = model.nameSearch.containingAll(words).and(matches);
  const phrase = words.join(' ');
  const tiers: number[][] = [[], [], []];
  for (const i of inName.slice(0, Number.MAX_SAFE_INTEGER)) {
    const name = model.foldedNames[i]!;
    tiers[name === phrase ? 0 : name.startsWith(phrase) ? 1 : 2]!.push(i);
  }
  const named = tiers.flat();
  const items = named.slice(start, end);
  if (items.length < end - start) {
    const skip = Math.max(0, start - named.length);
    items.push(...matches.andNot(inName).slice(skip, end - start - items.length));
  }
  return items;
}
