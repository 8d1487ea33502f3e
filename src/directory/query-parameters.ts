/**
 * Query-string rules shared by the paginated lists (GET /tools, GET /changes): read from
 * the text, every bad parameter reported at once, numbers as whole decimal numbers (never
 * `Infinity`, `1e3`, `0x10` or `1.0`), a parameter given twice refused.
 */
import { closest } from '../text/french-text.js';
import { MESSAGES, type Text } from './messages.js';
import { ProblemError, type ParameterError } from './problems.js';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;
const DIGITS = /^[0-9]+$/;

export type RawQuery = Record<string, string | string[] | undefined>;

/** A value given once, or an error; `undefined` when absent. */
export function single(raw: RawQuery, name: string, errors: ParameterError[]): string | undefined {
  const value = Object.hasOwn(raw, name) ? raw[name] : undefined;
  if (Array.isArray(value)) {
    errors.push({ parameter: name, value: value.join(','), rule: MESSAGES.repeated() });
    return undefined;
  }
  return value;
}

/** `page` (default 1) and `per_page` (default 30, clamped to 100 however long its text). */
/** Page sizes of a list: REST's 30 and 100; the MCP tools', smaller (agents pay per token). */
export interface PagingLimits {
  perPage: number;
  maxPerPage: number;
}

export const REST_PAGING: PagingLimits = { perPage: DEFAULT_PER_PAGE, maxPerPage: MAX_PER_PAGE };

export function parsePaging(raw: RawQuery, errors: ParameterError[], limits: PagingLimits = REST_PAGING): { page: number; perPage: number } {
  const max = limits.maxPerPage;
  let page = 1;
  const pageText = single(raw, 'page', errors)?.trim();
  if (pageText !== undefined && pageText !== '') {
    if (!DIGITS.test(pageText) || Number(pageText) < 1 || !Number.isSafeInteger(Number(pageText))) {
      errors.push({ parameter: 'page', value: pageText, rule: MESSAGES.page(Number.MAX_SAFE_INTEGER) });
    } else page = Number(pageText);
  }

  let perPage = limits.perPage;
  const perPageText = single(raw, 'per_page', errors)?.trim();
  if (perPageText !== undefined && perPageText !== '') {
    if (!DIGITS.test(perPageText) || /^0+$/.test(perPageText)) {
      errors.push({ parameter: 'per_page', value: perPageText, rule: MESSAGES.perPage(max) });
    } else perPage = perPageText.replace(/^0+/, '').length > 3 ? max : Math.min(Number(perPageText), max);
  }
  return { page, perPage };
}

/**
 * A comma-separated list of values from `allowed` (any case), returned in `allowed` order
 * without repeats; null when absent or blank. An unknown value is an error naming the
 * allowed values and, when one is close, a suggestion.
 */
export function choicesParameter<T extends string>(raw: RawQuery, name: string, allowed: readonly T[], errors: ParameterError[]): T[] | null {
  const text = single(raw, name, errors)?.trim();
  if (text === undefined || text === '') return null;
  const values = text.split(',').map((v) => v.trim().toLowerCase());
  const unknown = values.find((v) => !(allowed as readonly string[]).includes(v));
  if (unknown === undefined) return allowed.filter((a) => values.includes(a));
  const suggestion = closest(unknown.slice(0, 40), allowed, 1)[0];
  errors.push(withSuggestion({ parameter: name, value: text, rule: MESSAGES.oneOf(allowed, true) }, suggestion));
  return null;
}

/** `error` with `suggestion` (when there is one) appended to its text and given on its own. */
export function withSuggestion(error: ParameterError, suggestion: string | undefined): ParameterError {
  if (suggestion === undefined) return error;
  return { ...error, rule: { code: error.rule.code, message: MESSAGES.didYouMean(error.rule.message, suggestion) }, suggestion };
}

/** Throws the 400 problem that lists every error, if there is any. */
export function refuseIfAny(errors: ParameterError[]): void {
  if (errors.length === 0) return;
  const detail: Text = MESSAGES.invalidParameters(errors.map((e) => ({ parameter: e.parameter, message: e.rule.message })));
  throw new ProblemError('invalid-parameter', detail, { errors: errors.map((e) => ({ ...e, value: e.value.slice(0, 200) })) });
}

/** An instant, in ms since the epoch and as it goes into canonical links (UTC). */
export interface Instant {
  ms: number;
  canonical: string;
}

// RFC 3339 §5.6 `date-time`: seconds required, any fraction, `Z` or a numeric offset
// (`T` and `Z` may be lower case, §5.6 note). Nothing looser: a mistake is told, not guessed.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an RFC 3339 date-time names, or null when the text is not one. A leap second
 * (`23:59:60` in UTC, whatever the offset it is written with; RFC 3339 §5.7) has no instant
 * of its own in Unix time: it is read as the instant just after it, the next day's
 * `00:00:00Z`, so an inclusive `since` admits nothing from before the leap second
 * (docs/api-decisions.md).
 */
export function parseInstant(text: string): Instant | null {
  const m = DATE_TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60) return null;
  let offsetMinutes = 0;
  if (m[8] !== undefined) {
    const [oh, om] = [Number(m[9]), Number(m[10])];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Whole milliseconds, rounded up: `since` is inclusive, so an instant between two
  // milliseconds must not admit what came before it.
  const fraction = m[7] ?? '';
  const leap = second === 60;
  // Within a leap second, the fraction does not matter: every part of it maps to its end.
  const millis = leap ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0')) + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // years below 100 are not moved to the 1900s
  date.setUTCHours(hour, minute, leap ? 59 : second, 0);
  const start = date.getTime() - offsetMinutes * 60_000;
  if (leap) {
    const utc = new Date(start);
    if (utc.getUTCHours() !== 23 || utc.getUTCMinutes() !== 59) return null; // only the last second of a UTC day
  }
  const ms = start + millis + (leap ? 1000 : 0);
  const utc = new Date(ms);
  // An offset can carry 0000-01-01 or 9999-12-31 out of the four-digit years.
  if (utc.getUTCFullYear() < 0 || utc.getUTCFullYear() > 9999) return null;
  return { ms, canonical: utc.toISOString().replace('.000Z', 'Z') };
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** An optional instant parameter (`updated_since`, `since`); blank is absent. */
export function instantParameter(raw: RawQuery, name: string, errors: ParameterError[]): Instant | null {
  const text = single(raw, name, errors)?.trim();
  if (text === undefined || text === '') return null;
  const instant = parseInstant(text);
  if (instant === null) {
    // `+01:00` unencoded in a URL arrives as ` 01:00`: say so rather than a bare refusal.
    errors.push({ parameter: name, value: text, rule: MESSAGES.dateTime(/\d \d{2}:\d{2}$/.test(text)) });
  }
  return instant;
}

/** A slug as the content allows it (docs/content-format.md): checked before any lookup. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 80;
