/**
 * The school filters of GET /tools (API.md, "School use"): one bitset per value of each
 * fact, built once per revision, so a filter costs what the category filter costs (N/32
 * words). A filter never matches a tool whose fact is null; `age` keeps tools whose answer
 * to "can my pupils use it?" (school/for-pupils.ts) at that age is yes or with_consent, or
 * the answers `for_pupils` names (yes always among them).
 */
import {
  AGE_FILTER_ANSWERS, type AgeFilterAnswer, DATA_LOCATIONS, GENERATIVE_AI, INSTITUTIONAL_ACCESS, labelTable, PUPIL_ACCOUNTS, PUPIL_USES, TRAINS_ON_USER_DATA,
  type ForPupilsBand, type SchoolFactFilter, type SchoolVocabularies, type ToolRecord, type LevelEntry, type SubjectEntry,
} from '../domain.js';
import { Bitset } from '../bitset.js';
import { bandAt } from '../school/for-pupils.js';
import { indexVocabulary, type VocabularyIndex } from '../school/vocabulary.js';

/** The filters whose values are a closed list, in the order facets show them. */
export const SCHOOL_ENUMS = {
  pupil_use: PUPIL_USES,
  pupil_account: PUPIL_ACCOUNTS,
  generative_ai: GENERATIVE_AI,
  trains_on_user_data: TRAINS_ON_USER_DATA,
  data_location: DATA_LOCATIONS,
  institutional_access: INSTITUTIONAL_ACCESS,
} as const;
export type SchoolEnumFilter = keyof typeof SCHOOL_ENUMS;
export const SCHOOL_BOOLEANS = ['offline', 'open_source'] as const;
export type SchoolBooleanFilter = (typeof SCHOOL_BOOLEANS)[number];
/** Every school filter of GET /tools but `age`, in the order of the contract. */
export const SCHOOL_FILTERS = ['level', 'subject', ...(Object.keys(SCHOOL_ENUMS) as SchoolEnumFilter[]), ...SCHOOL_BOOLEANS] as const;
/** Filters on a tool's own lists, which work the same way (a value → the tools with it). */
export const ATTRIBUTE_FILTERS = ['platform', 'language', 'tag'] as const;
export type AttributeFilter = (typeof ATTRIBUTE_FILTERS)[number];
/** Every filter answered by a set per value: the school facts and the tools' lists. */
export const VALUE_FILTERS = [...SCHOOL_FILTERS, ...ATTRIBUTE_FILTERS] as const;
export type SchoolFilter = (typeof VALUE_FILTERS)[number];

export const MIN_AGE_FILTER = 3;
export const MAX_AGE_FILTER = 99;

/**
 * The answers of `for_pupils` the `age` filter may keep, as `for_pupils=` lists them: `yes`
 * always, `with_consent` unless `for_pupils` leaves it out (`for_pupils=yes`), `teacher_led`
 * when it is named (a class of that age working with a tool its teacher leads), `unknown` when
 * it is named (a tool whose answer waits on a fact nobody has read yet: not known to be
 * refused at that age, as a need read in a search keeps it, docs/search.md).
 */
export { AGE_FILTER_ANSWERS, type AgeFilterAnswer };
/** What `age` keeps without `for_pupils`. */
export const DEFAULT_AGE_ANSWERS: readonly AgeFilterAnswer[] = ['yes', 'with_consent'];
/** The answers a list keeps, in their canonical order (`yes` first, always there); an index into SchoolIndex.byAge. */
const answersIndex = (answers: readonly string[]) => (answers.includes('with_consent') ? 1 : 0) | (answers.includes('teacher_led') ? 2 : 0) | (answers.includes('unknown') ? 4 : 0);
/** `answers` with `yes`, in the canonical order. */
export const ageAnswers = (answers: readonly string[]): AgeFilterAnswer[] => AGE_FILTER_ANSWERS.filter((a) => a === 'yes' || answers.includes(a));

/** French labels of the values, for facets and pages. */
export const SCHOOL_VALUE_LABELS: Readonly<Record<string, string>> = labelTable({
  independent: 'En autonomie', supervised: 'Encadré par l’enseignant', teacher_only: 'Enseignant seulement',
  none: 'Aucun', class_code: 'Code de classe', teacher_created: 'Compte créé par l’enseignant', school_sso: 'Compte de l’établissement', personal: 'Compte personnel',
  feature: 'En fonctionnalité', core: 'Au cœur du produit',
  no: 'Non', opt_out: 'Oui, sauf refus', yes: 'Oui', not_applicable: 'Sans objet',
  device: 'Sur l’appareil', france: 'En France', eu: 'Dans l’Union européenne', outside_eu: 'Hors de l’Union européenne',
  gar: 'GAR', ent: 'ENT', apps_education: 'apps.education.fr', educonnect: 'ÉduConnect',
  true: 'Oui', false: 'Non',
});

export interface SchoolIndex {
  readonly levels: VocabularyIndex<LevelEntry>;
  readonly subjects: VocabularyIndex<SubjectEntry>;
  /** Per filter, value (slug, enum value, `true`/`false`) → the tools with it. */
  readonly sets: Readonly<Record<SchoolFilter, ReadonlyMap<string, Bitset>>>;
  /**
   * Per set of answers kept (`answersIndex`: yes, with each combination of with_consent,
   * teacher_led and unknown), per age (0–99), the tools whose `for_pupils` answer at that age
   * is one of them.
   */
  readonly byAge: ReadonlyArray<readonly Bitset[]>;
}

/** What a query asks of the school facts; values are canonical (slugs, enum values, `true`/`false`). */
export interface SchoolQuery {
  readonly values: Partial<Record<SchoolFilter, readonly string[]>>;
  readonly age: number | null;
  /** The answers of `for_pupils` the `age` filter keeps (AGE_FILTER_ANSWERS, canonical); absent: DEFAULT_AGE_ANSWERS. */
  readonly forPupils?: readonly AgeFilterAnswer[];
  /** `subject` also matches `transversal` tools. */
  readonly includeTransversal: boolean;
}

/**
 * `pupils`: each tool's `for_pupils`; `best`: what it could answer at best once its unknown
 * facts are read (school/for-pupils.ts, `bestCase`): a tool whose answer at an age is `unknown`
 * is kept with `unknown` only when that best answer is one the filter keeps besides (not a
 * generative-AI product for pupils on their own before the framework's age, say).
 */
export function buildSchoolIndex(tools: readonly ToolRecord[], vocabularies: SchoolVocabularies, pupils: ReadonlyArray<readonly ForPupilsBand[]>, best: ReadonlyArray<readonly ForPupilsBand[]> = pupils): SchoolIndex {
  const n = tools.length;
  const sets = Object.fromEntries(VALUE_FILTERS.map((f) => [f, new Map<string, Bitset>()])) as Record<SchoolFilter, Map<string, Bitset>>;
  const put = (filter: SchoolFilter, value: string, i: number) => {
    let set = sets[filter].get(value);
    if (set === undefined) sets[filter].set(value, (set = new Bitset(n)));
    set.add(i);
  };
  tools.forEach((t, i) => {
    const s = t.school;
    for (const level of s.levels ?? []) put('level', level, i);
    for (const subject of s.subjects ?? []) put('subject', subject, i);
    for (const filter of Object.keys(SCHOOL_ENUMS) as SchoolEnumFilter[]) {
      const value = s[filter];
      if (value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) put(filter, v, i);
    }
    for (const filter of SCHOOL_BOOLEANS) if (s[filter] !== null) put(filter, String(s[filter]), i);
    for (const platform of t.platforms) put('platform', platform, i);
    for (const language of t.languages) put('language', language, i);
    for (const tag of t.tags) put('tag', tag, i);
  });
  // The age filter is the answer of `for_pupils` at that age, never a second computation.
  const byAge: Bitset[][] = Array.from({ length: 8 }, (): Bitset[] => []);
  for (let age = 0; age <= MAX_AGE_FILTER; age++) {
    const kept = byAge.map(() => new Bitset(n));
    const keeps = (answer: string, k: number) => answer === 'yes' || (answer === 'with_consent' && (k & 1) !== 0) || (answer === 'teacher_led' && (k & 2) !== 0);
    pupils.forEach((bands, i) => {
      if (age < MIN_AGE_FILTER) return;
      const { answer } = bandAt(bands, age);
      const atBest = answer === 'unknown' ? bandAt(best[i]!, age).answer : null;
      kept.forEach((set, k) => {
        if (keeps(answer, k) || (atBest !== null && (k & 4) !== 0 && keeps(atBest, k))) set.add(i);
      });
    });
    kept.forEach((set, k) => byAge[k]!.push(set));
  }
  return { levels: indexVocabulary(vocabularies.levels), subjects: indexVocabulary(vocabularies.subjects), sets, byAge };
}

/** The tools whose `for_pupils` answer at `age` is one of `answers` (`yes` always counts): the `age` filter, and a search's. */
export function ageFilterSet(index: SchoolIndex, age: number, answers: readonly string[] = DEFAULT_AGE_ANSWERS): Bitset {
  return index.byAge[answersIndex(answers)]![age]!;
}

/** The tools a school filter keeps, or null when the query does not use it. */
export function schoolFilterSet(index: SchoolIndex, query: SchoolQuery, filter: SchoolFilter | 'age', n: number): Bitset | null {
  if (filter === 'age') return query.age === null ? null : ageFilterSet(index, query.age, query.forPupils);
  const values = query.values[filter];
  if (values === undefined) return null;
  const wanted = filter === 'subject' && query.includeTransversal && !values.includes('transversal') ? [...values, 'transversal'] : values;
  let out: Bitset | null = null;
  for (const v of wanted) {
    const set = index.sets[filter].get(v);
    if (set !== undefined) out = out === null ? set : out.or(set);
  }
  return out ?? new Bitset(n);
}

/**
 * The tools known to have every fact of a search hint (content/search-vocabulary.yaml,
 * `school_facts`): the sets the filters of the same names keep.
 */
export function factSet(index: SchoolIndex, filter: SchoolFactFilter, n: number): Bitset {
  const values = Object.fromEntries(Object.entries(filter).map(([f, v]) => [f, Array.isArray(v) ? v : [String(v)]]));
  const query: SchoolQuery = { values, age: null, includeTransversal: false };
  return Object.keys(values).reduce<Bitset | null>((set, f) => {
    const kept = schoolFilterSet(index, query, f as SchoolFilter, n)!;
    return set === null ? kept : set.and(kept);
  }, null) ?? new Bitset(n);
}

/** A stable text of the school part of a query, for memo keys and canonical URLs. */
export function schoolQueryKey(query: SchoolQuery): string {
  if (query === NO_SCHOOL_QUERY) return '';
  const parts = VALUE_FILTERS.flatMap((f) => (query.values[f] ? [`${f}=${query.values[f]!.join(',')}`] : []));
  if (query.age !== null) parts.push(`age=${query.age}`);
  if (query.forPupils) parts.push(`for_pupils=${query.forPupils.join(',')}`);
  if (query.includeTransversal) parts.push('include_transversal=1');
  return parts.join('&');
}

export const NO_SCHOOL_QUERY: SchoolQuery = Object.freeze({ values: Object.freeze({}), age: null, includeTransversal: false });
