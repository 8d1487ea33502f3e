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
 *   `0` is no restriction, so there is no `false` to select).
 */
import { PRICING_LABELS, PRICING_MODELS, type PricingModel } from '../domain.js';
import type { Bitset } from './bitset.js';
import { filterSets, intersectAll, searchMatches, type ToolsQuery } from './list-tools.js';
import type { ReadModel } from './read-model.js';

export const FACET_NAMES = ['category', 'pricing', 'has_education_pricing'] as const;
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
}

export const EDUCATION_LABEL = 'Avec offre éducation';

const countIn = (base: Bitset | null, set: Bitset) => (base === null ? set.count() : base.countAnd(set));

export function facetCounts(model: ReadModel, query: ToolsQuery, names: readonly FacetName[]): Facets {
  const sets = filterSets(model, query);
  const search = searchMatches(model, query);
  const facets: Facets = {};
  if (names.includes('category')) {
    const base = intersectAll([sets.pricing, sets.education, sets.updated, search]);
    facets.category = model.categories
      .map(({ record }, ci) => ({
        value: record.slug,
        label: record.name,
        count: countIn(base, model.byCategory[ci]!),
        selected: query.categories?.includes(record.slug) ?? false,
      }))
      .filter((v) => v.count > 0 || v.selected)
      // Stable: equal counts keep the model's French collation order.
      .sort((a, b) => b.count - a.count);
  }
  if (names.includes('pricing')) {
    const base = intersectAll([sets.category, sets.education, sets.updated, search]);
    facets.pricing = PRICING_MODELS.map((pricing, p) => ({
      value: pricing,
      label: PRICING_LABELS[pricing],
      count: countIn(base, model.byPricing[p]!),
      selected: query.pricing?.includes(pricing) ?? false,
    }));
  }
  if (names.includes('has_education_pricing')) {
    const base = intersectAll([sets.category, sets.pricing, sets.updated, search]);
    facets.has_education_pricing = [{ value: true, label: EDUCATION_LABEL, count: countIn(base, model.withEducation), selected: query.educationOnly }];
  }
  return facets;
}
