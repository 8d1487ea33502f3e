/**
 * GET /tools as a pure function of (read model, normalised query): which tools match, in
 * which order, and which of them fall on the requested page.
 */
import type { PricingModel } from '../domain.js';
import { PRICING_MODELS } from '../domain.js';
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
  const matches = filterTools(model, query);
  const start = (query.page - 1) * query.perPage;
  return { total: matches.length, items: start >= matches.length ? [] : matches.slice(start, start + query.perPage) };
}

function filterTools(model: ReadModel, query: ToolsQuery): number[] {
  const categorySet = query.categories ? new Set(query.categories.map((s) => model.categoryIndex.get(s) ?? -2)) : null;
  const pricingSet = query.pricing ? new Set(query.pricing.map((p) => PRICING_MODELS.indexOf(p))) : null;
  const keep = (i: number) =>
    (categorySet === null || categorySet.has(model.categoryOf[i]!)) &&
    (pricingSet === null || pricingSet.has(model.pricingOf[i]!)) &&
    (!query.educationOnly || model.hasEducation[i] === 1);

  if (query.words.length === 0) {
    const order = query.sort === '-updated_at' ? model.byUpdatedDesc : query.sort === '-created_at' ? model.byCreatedDesc : null;
    const out: number[] = [];
    if (order === null) {
      for (let i = 0; i < model.tools.length; i++) if (keep(i)) out.push(i);
    } else {
      for (const i of order) if (keep(i)) out.push(i);
    }
    return out;
  }

  const words = query.words;
  const candidates = model.search.candidates(words);
  const out: number[] = [];
  const consider = (i: number) => {
    if (keep(i) && model.search.matches(i, words)) out.push(i);
  };
  if (candidates === null) for (let i = 0; i < model.tools.length; i++) consider(i);
  else for (const i of candidates) consider(i);

  // Candidates come in index order, which is name order: only other orders need a sort.
  if (query.sort === 'relevance') {
    // Four tiers, each already in name order: a stable bucket pass, no comparison sort.
    const phrase = words.join(' ');
    const tiers: number[][] = [[], [], [], []];
    for (const i of out) tiers[relevanceTier(model.foldedNames[i]!, phrase, words)]!.push(i);
    return tiers.flat();
  } else if (query.sort !== 'name') {
    const rank = rankIn(query.sort === '-updated_at' ? model.byUpdatedDesc : model.byCreatedDesc, model.tools.length);
    out.sort((a, b) => rank[a]! - rank[b]!);
  }
  return out;
}

/** 0 exact name, 1 name prefix, 2 every word in the name, 3 found through the description. */
export function relevanceTier(foldedName: string, phrase: string, words: readonly string[]): number {
  if (foldedName === phrase) return 0;
  if (foldedName.startsWith(phrase)) return 1;
  return words.every((w) => foldedName.includes(w)) ? 2 : 3;
}

const rankCache = new WeakMap<Int32Array, Int32Array>();
function rankIn(order: Int32Array, n: number): Int32Array {
  let rank = rankCache.get(order);
  if (!rank) {
    rank = new Int32Array(n);
    order.forEach((tool, position) => (rank![tool] = position));
    rankCache.set(order, rank);
  }
  return rank;
}
