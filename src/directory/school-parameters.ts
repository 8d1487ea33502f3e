/**
 * The school parameters of GET /tools (and of MCP `search_tools`): `level` and `subject`
 * take a slug or any alias (`6e`, `cycle 3`, `hg`), resolved against the vocabularies of the
 * revision being read; the other facts take their values; `age` a whole number 3–99. An
 * unknown value is a 400 naming the parameter, with the nearest valid value.
 */
import { PLATFORMS } from '../domain.js';
import { ageAnswers, AGE_FILTER_ANSWERS, DEFAULT_AGE_ANSWERS, MAX_AGE_FILTER, MIN_AGE_FILTER, NO_SCHOOL_QUERY, SCHOOL_BOOLEANS, SCHOOL_ENUMS, type SchoolFilter, type SchoolIndex, type SchoolQuery } from '../read-model/school-filters.js';
import { inVocabularyOrder, nearestSlug, resolveTerm, type VocabularyIndex } from '../school/vocabulary.js';
import { MESSAGES } from './messages.js';
import type { ParameterError } from './problems.js';
import { choicesParameter, single, withSuggestion, type RawQuery } from './query-parameters.js';

/** The parameters this module reads, for clients that pass arguments by name (MCP). */
export const SCHOOL_PARAMETERS = ['level', 'subject', 'include_transversal', 'age', 'for_pupils', ...Object.keys(SCHOOL_ENUMS), ...SCHOOL_BOOLEANS, 'platform', 'language', 'tag'] as const;

const LANGUAGE = /^[a-z]{2}$/;
/** The answers `for_pupils` may ask for: those of the `age` filter (API.md, docs/api-decisions.md). */
const FOR_PUPILS = AGE_FILTER_ANSWERS;
const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function parseSchoolParameters(raw: RawQuery, index: SchoolIndex, errors: ParameterError[]): SchoolQuery {
  const values: Partial<Record<SchoolFilter, readonly string[]>> = {};
  const vocabulary = (name: 'level' | 'subject', vocab: VocabularyIndex) => {
    const text = single(raw, name, errors)?.trim();
    if (text === undefined || text === '') return;
    const slugs: string[] = [];
    for (const value of text.split(',').map((v) => v.trim()).filter((v) => v !== '')) {
      const resolved = value.length <= 60 ? resolveTerm(vocab, value) : null;
      if (resolved === null) {
        const rule = name === 'level' ? MESSAGES.level() : MESSAGES.subject();
        errors.push(withSuggestion({ parameter: name, value: text, rule }, nearestSlug(vocab, value.slice(0, 40))));
        return;
      }
      slugs.push(...resolved);
    }
    if (slugs.length > 0) values[name] = inVocabularyOrder(vocab, slugs);
  };
  vocabulary('level', index.levels);
  vocabulary('subject', index.subjects);
  for (const [name, allowed] of Object.entries(SCHOOL_ENUMS) as Array<[keyof typeof SCHOOL_ENUMS, readonly string[]]>) {
    const chosen = choicesParameter(raw, name, allowed, errors);
    if (chosen !== null) values[name] = chosen;
  }
  for (const name of SCHOOL_BOOLEANS) {
    const flag = booleanParameter(raw, name, errors);
    if (flag !== null) values[name] = [String(flag)];
  }
  const includeTransversal = booleanParameter(raw, 'include_transversal', errors) === true;
  const platforms = choicesParameter(raw, 'platform', PLATFORMS, errors);
  if (platforms !== null) values.platform = platforms;
  for (const [name, pattern, rule] of [['language', LANGUAGE, MESSAGES.languageList()], ['tag', TAG, MESSAGES.tagList()]] as const) {
    const text = single(raw, name, errors)?.trim();
    if (text === undefined || text === '') continue;
    const list = [...new Set(text.split(',').map((v) => v.trim().toLowerCase()).filter((v) => v !== ''))].sort();
    if (list.length === 0 || list.some((v) => !pattern.test(v))) errors.push({ parameter: name, value: text, rule });
    else values[name] = list;
  }

  let age: number | null = null;
  const ageText = single(raw, 'age', errors)?.trim();
  if (ageText !== undefined && ageText !== '') {
    const n = /^\d{1,3}$/.test(ageText) ? Number(ageText) : NaN;
    if (!(n >= MIN_AGE_FILTER && n <= MAX_AGE_FILTER)) errors.push({ parameter: 'age', value: ageText, rule: MESSAGES.age(MIN_AGE_FILTER, MAX_AGE_FILTER) });
    else age = n;
  }
  // The answers the age filter keeps: yes always; for_pupils=yes yes alone; with_consent (the
  // age filter alone) yes and with_consent; teacher_led adds the tools a teacher leads.
  const forPupils = choicesParameter(raw, 'for_pupils', FOR_PUPILS, errors);
  if (forPupils !== null && age === null && (ageText === undefined || ageText === '')) errors.push({ parameter: 'for_pupils', value: forPupils.join(','), rule: MESSAGES.forPupilsNeedsAge() });
  const kept = forPupils === null ? null : ageAnswers(forPupils);
  const other = kept !== null && kept.join() !== DEFAULT_AGE_ANSWERS.join();
  // No school parameter: the one shared empty query, which the list and its key recognise at once.
  if (age === null && !includeTransversal && Object.keys(values).length === 0) return NO_SCHOOL_QUERY;
  return { values, age, includeTransversal, ...(other && age !== null ? { forPupils: kept } : {}) };
}

/** `1`/`true` → true, `0`/`false` → false, absent or blank → null; anything else an error. */
export function booleanParameter(raw: RawQuery, name: string, errors: ParameterError[]): boolean | null {
  const text = single(raw, name, errors)?.trim();
  if (text === undefined || text === '') return null;
  const v = text.toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  errors.push({ parameter: name, value: text, rule: MESSAGES.boolean() });
  return null;
}
