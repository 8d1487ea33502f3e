/**
 * Reads the query string of GET /tools from its text: every bad parameter is reported at
 * once, numbers are whole decimal numbers (never `Infinity`, `1e3`, `0x10` or `1.0`), a
 * parameter given twice is refused, and unknown parameters are ignored.
 */
import { PRICING_MODELS } from '../domain.js';
import type { ToolSort, ToolsQuery } from '../read-model/list-tools.js';
import { NO_SCHOOL_QUERY, schoolQueryKey, type SchoolIndex } from '../read-model/school-filters.js';
import { booleanParameter, parseSchoolParameters } from './school-parameters.js';
import { FACET_NAMES, type FacetName } from '../read-model/facets.js';
import { closest, foldedWords, normalizeText } from '../text/french-text.js';
import { MESSAGES } from './messages.js';
import type { ParameterError } from './problems.js';
import { choicesParameter, instantParameter, parsePaging, refuseIfAny, single, withSuggestion, REST_PAGING, type PagingLimits, type RawQuery } from './query-parameters.js';

export const MAX_Q_LENGTH = 200;
const SORTS = ['name', '-updated_at', '-created_at'] as const;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface ParsedToolsQuery extends ToolsQuery {
  /** Whether `sort` was given (links repeat it only then). */
  sortGiven: boolean;
  /** `updated_since` in UTC, as links repeat it, or null. */
  updatedSinceText: string | null;
  /** The facets asked for, in FACET_NAMES order (none: no `meta.facets`). */
  facets: readonly FacetName[];
}

function list(value: string): string[] {
  return value.split(',').map((s) => s.trim());
}

/** `school`: the revision's school index, whose vocabularies resolve `level` and `subject`. */
export function parseToolsQuery(raw: RawQuery, school: SchoolIndex, paging: PagingLimits = REST_PAGING): ParsedToolsQuery {
  const errors: ParameterError[] = [];

  const { page, perPage } = parsePaging(raw, errors, paging);

  let categories: string[] | null = null;
  const categoryText = single(raw, 'category', errors)?.trim();
  if (categoryText !== undefined && categoryText !== '') {
    const slugs = list(categoryText);
    const bad = slugs.filter((s) => !SLUG.test(s) || s.length > 80);
    if (bad.length > 0) {
      errors.push({ parameter: 'category', value: categoryText, rule: MESSAGES.slugList() });
    } else categories = [...new Set(slugs)].sort();
  }

  const pricing = choicesParameter(raw, 'pricing', PRICING_MODELS, errors);

  const educationOnly = booleanParameter(raw, 'has_education_pricing', errors) === true;
  const schoolQuery = parseSchoolParameters(raw, school, errors);

  let q: string | null = null;
  const qText = single(raw, 'q', errors);
  if (qText !== undefined) {
    const normalized = normalizeText(qText).replace(/\s+/g, ' ').trim();
    if ([...normalized].length > MAX_Q_LENGTH) {
      errors.push({ parameter: 'q', value: qText.slice(0, 50), rule: MESSAGES.tooLong(MAX_Q_LENGTH, [...normalized].length) });
    } else if (foldedWords(normalized).length > 0) {
      // A query whose every character folds away (only punctuation) is no search.
      q = normalized;
    }
  }

  let sort: ToolSort = q !== null ? 'relevance' : 'name';
  let sortGiven = false;
  const sortText = single(raw, 'sort', errors)?.trim();
  if (sortText !== undefined && sortText !== '') {
    if ((SORTS as readonly string[]).includes(sortText)) {
      sort = sortText as ToolSort;
      sortGiven = true;
    } else {
      const suggestion = closest(sortText.slice(0, 40), SORTS, 1)[0] ?? closest(`-${sortText.slice(0, 40)}`, SORTS, 1)[0];
      errors.push(withSuggestion({ parameter: 'sort', value: sortText, rule: MESSAGES.oneOf(SORTS, false) }, suggestion));
    }
  }

  const updatedSince = instantParameter(raw, 'updated_since', errors);

  const facets = choicesParameter(raw, 'facets', FACET_NAMES, errors) ?? [];

  refuseIfAny(errors);
  if (q === null && sort === 'relevance') sort = 'name';
  return {
    page, perPage, categories, pricing, educationOnly, sort, q, sortGiven,
    updatedSince: updatedSince?.ms ?? null, updatedSinceText: updatedSince?.canonical ?? null, facets,
    school: schoolQuery,
  };
}

/** The canonical query string of a page: the same query always gives the same text. */
export function canonicalToolsQuery(query: ParsedToolsQuery, page: number): string {
  const parts: string[] = [];
  if (query.q !== null) parts.push(`q=${encodeURIComponent(query.q)}`);
  if (query.categories) parts.push(`category=${query.categories.join(',')}`);
  if (query.pricing) parts.push(`pricing=${query.pricing.join(',')}`);
  if (query.educationOnly) parts.push('has_education_pricing=1');
  if (query.updatedSinceText !== null) parts.push(`updated_since=${query.updatedSinceText}`);
  const school = schoolQueryKey(query.school ?? NO_SCHOOL_QUERY);
  if (school !== '') parts.push(school);
  if (query.sortGiven) parts.push(`sort=${query.sort}`);
  if (query.facets.length > 0) parts.push(`facets=${query.facets.join(',')}`);
  parts.push(`page=${page}`, `per_page=${query.perPage}`);
  return parts.join('&');
}
