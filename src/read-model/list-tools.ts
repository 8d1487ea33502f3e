/**
 * GET /tools as a pure function of (read model, normalised query): which tools match, in
 * which order, and which of them fall on the requested page. Filters are bitsets, the search
 * (src/search/search-index.ts) gives a set and an order kept per distinct query, so a page
 * costs the directory size divided by 32 plus a walk of the order up to the page.
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
  /** The search text (NFC, single spaces), or null for no search. */
  q: string | null;
  sort: ToolSort;
}

export interface ToolsPage {
  total: number;
  /** Indices into `model.tools`, for the requested page only. */
  items: number[];
}

export function listTools(model: ReadModel, query: ToolsQuery): ToolsPage {
  const start = (query.page - 1) * query.perPage;
  const filters = filterSet(model, query);
  const found = query.q === null ? null : model.search.search(query.q);
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
