/**
 * Reads the query string of GET /tools from its text: every bad parameter is reported at
 * once, numbers are whole decimal numbers (never `Infinity`, `1e3`, `0x10` or `1.0`), a
 * parameter given twice is refused, and unknown parameters are ignored.
 */
import { PRICING_MODELS, type PricingModel } from '../domain.js';
import type { ToolSort, ToolsQuery } from '../read-model/list-tools.js';
import { closest, foldedWords, normalizeText } from '../text/french-text.js';
import { ProblemError, type ParameterError } from './problems.js';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;
export const MAX_Q_LENGTH = 200;
const SORTS = ['name', '-updated_at', '-created_at'] as const;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DIGITS = /^[0-9]+$/;

export interface ParsedToolsQuery extends ToolsQuery {
  /** Whether `sort` was given (links repeat it only then). */
  sortGiven: boolean;
}

type Raw = Record<string, string | string[] | undefined>;

/** A value given once, or an error; `undefined` when absent. */
function single(raw: Raw, name: string, errors: ParameterError[]): string | undefined {
  const value = Object.hasOwn(raw, name) ? raw[name] : undefined;
  if (Array.isArray(value)) {
    errors.push({ parameter: name, value: value.join(','), message: 'is given more than once; give it once (use a comma-separated list for several values)' });
    return undefined;
  }
  return value;
}

function list(value: string): string[] {
  return value.split(',').map((s) => s.trim());
}

export function parseToolsQuery(raw: Raw): ParsedToolsQuery {
  const errors: ParameterError[] = [];

  let page = 1;
  const pageText = single(raw, 'page', errors)?.trim();
  if (pageText !== undefined && pageText !== '') {
    if (!DIGITS.test(pageText) || Number(pageText) < 1 || !Number.isSafeInteger(Number(pageText))) {
      errors.push({ parameter: 'page', value: pageText, message: `must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}` });
    } else page = Number(pageText);
  }

  let perPage = DEFAULT_PER_PAGE;
  const perPageText = single(raw, 'per_page', errors)?.trim();
  if (perPageText !== undefined && perPageText !== '') {
    // Any whole number above 100 is clamped, however long its text.
    if (!DIGITS.test(perPageText) || /^0+$/.test(perPageText)) {
      errors.push({ parameter: 'per_page', value: perPageText, message: `must be a whole number from 1 to ${MAX_PER_PAGE} (larger values are clamped to ${MAX_PER_PAGE})` });
    } else perPage = perPageText.replace(/^0+/, '').length > 3 ? MAX_PER_PAGE : Math.min(Number(perPageText), MAX_PER_PAGE);
  }

  let categories: string[] | null = null;
  const categoryText = single(raw, 'category', errors)?.trim();
  if (categoryText !== undefined && categoryText !== '') {
    const slugs = list(categoryText);
    const bad = slugs.filter((s) => !SLUG.test(s) || s.length > 80);
    if (bad.length > 0) {
      errors.push({ parameter: 'category', value: categoryText, message: 'must be one or more category slugs separated by commas (lowercase letters, digits and hyphens)' });
    } else categories = [...new Set(slugs)].sort();
  }

  let pricing: PricingModel[] | null = null;
  const pricingText = single(raw, 'pricing', errors)?.trim();
  if (pricingText !== undefined && pricingText !== '') {
    const values = list(pricingText).map((v) => v.toLowerCase());
    const unknown = values.filter((v) => !(PRICING_MODELS as readonly string[]).includes(v));
    if (unknown.length > 0) {
      const suggestion = closest(unknown[0]!.slice(0, 40), PRICING_MODELS, 1)[0];
      errors.push({
        parameter: 'pricing',
        value: pricingText,
        message: `must be free, freemium, paid or enterprise, or several separated by commas${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        ...(suggestion ? { suggestion } : {}),
      });
    } else pricing = PRICING_MODELS.filter((m) => values.includes(m));
  }

  let educationOnly = false;
  const eduText = single(raw, 'has_education_pricing', errors)?.trim();
  if (eduText !== undefined && eduText !== '') {
    const v = eduText.toLowerCase();
    if (v === '1' || v === 'true') educationOnly = true;
    else if (v !== '0' && v !== 'false') {
      errors.push({ parameter: 'has_education_pricing', value: eduText, message: 'must be 1, true, 0 or false' });
    }
  }

  let q: string | null = null;
  const qText = single(raw, 'q', errors);
  if (qText !== undefined) {
    const normalized = normalizeText(qText).replace(/\s+/g, ' ').trim();
    if ([...normalized].length > MAX_Q_LENGTH) {
      errors.push({ parameter: 'q', value: qText.slice(0, 50), message: `must be at most ${MAX_Q_LENGTH} characters (has ${[...normalized].length})` });
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
      errors.push({
        parameter: 'sort',
        value: sortText,
        message: `must be name, -updated_at or -created_at${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        ...(suggestion ? { suggestion } : {}),
      });
    }
  }

  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.parameter} ${e.message}${e.message.endsWith('?') ? '' : '.'}`).join(' ');
    throw new ProblemError('invalid-parameter', detail, { errors: errors.map((e) => ({ ...e, value: e.value.slice(0, 200) })) });
  }
  if (q === null && sort === 'relevance') sort = 'name';
  return { page, perPage, categories, pricing, educationOnly, sort, q, sortGiven };
}

/** The canonical query string of a page: the same query always gives the same text. */
export function canonicalToolsQuery(query: ParsedToolsQuery, page: number): string {
  const parts: string[] = [];
  if (query.q !== null) parts.push(`q=${encodeURIComponent(query.q)}`);
  if (query.categories) parts.push(`category=${query.categories.join(',')}`);
  if (query.pricing) parts.push(`pricing=${query.pricing.join(',')}`);
  if (query.educationOnly) parts.push('has_education_pricing=1');
  if (query.sortGiven) parts.push(`sort=${query.sort}`);
  parts.push(`page=${page}`, `per_page=${query.perPage}`);
  return parts.join('&');
}
