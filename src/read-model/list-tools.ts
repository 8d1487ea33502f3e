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
  if (query.words.length === 0) return filters;
  const found = model.search.containingAll(query.words);
  return filters === null ? found : filters.and(found);
}

// Filter combinations repeat a lot (a few categories × pricing × education): keep their sets.
const filterMemo = new WeakMap<ReadModel, Map<string, Bitset | null>>();

function filterSet(model: ReadModel, query: ToolsQuery): Bitset | null {
  const key = `${query.categories?.join(',') ?? '*'}|${query.pricing?.join(',') ?? '*'}|${query.educationOnly}`;
  let memo = filterMemo.get(model);
  if (!memo) filterMemo.set(model, (memo = new Map()));
  const known = memo.get(key);
  if (known !== undefined) return known;
  let set: Bitset | null = null;
  const narrow = (other: Bitset) => (set = set === null ? other : set.and(other));
  if (query.categories) {
    const sets = query.categories.flatMap((slug) => {
      const ci = model.categoryIndex.get(slug);
      return ci === undefined ? [] : [model.byCategory[ci]!];
    });
    narrow(sets.length === 0 ? new Bitset(model.tools.length) : sets.reduce((a, b) => a.or(b)));
  }
  if (query.pricing) narrow(query.pricing.map((p) => model.byPricing[PRICING_MODELS.indexOf(p)]!).reduce((a, b) => a.or(b)));
  if (query.educationOnly) narrow(model.withEducation);
  if (memo.size >= 1_000) memo.clear();
  memo.set(key, set);
  return set;
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
