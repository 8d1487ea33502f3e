/** What a query was read as (`meta.query`), from its reading (query-reading.ts), and what its constraints keep. */
import { Bitset } from '../bitset.js';
import { AGE_FILTER_ANSWERS, type AgeFilterAnswer, type SchoolFactHint } from '../domain.js';
import { Role, type QueryReading } from './query-reading.js';

export interface SearchResult {
  /** The matching documents, best first. */
  readonly ranked: Int32Array;
  /** The same documents, as a set. */
  readonly set: Bitset;
  /** What the query was read as (`meta.query`). */
  readonly understood: UnderstoodQuery;
}

/** The tools whose `for_pupils` answer at `age` is one of `answers` (school-filters.ts, ageFilterSet). */
export type AgeSet = (age: number, answers: readonly string[]) => Bitset;

/**
 * The `for_pupils` answers the pupils' age keeps, as GET /tools' `for_pupils` takes them: a
 * class a teacher speaks of (« mes élèves de 5e », « ma classe de CM2 ») may work with a tool
 * its teacher leads (`teacher_led`: correcting their copies, a quiz shown in class); a child's
 * age alone (« pour un enfant de 8 ans ») keeps what the child may use (the `age` filter alone).
 * Both keep a tool whose answer at that age is `unknown` (a fact it depends on, most often the
 * minimum age of its terms, nobody has read yet): a need read in a sentence drops the tools
 * known to break it (`no`; `teacher_led` for a child on its own), not the many of which the
 * directory does not know yet; each result's `for_pupils` says which is which.
 */
const IN_CLASS: readonly AgeFilterAnswer[] = AGE_FILTER_ANSWERS; // every answer the age filter may keep
const ALONE: readonly AgeFilterAnswer[] = ['yes', 'with_consent', 'unknown'];
/** An age and the `for_pupils` answers kept at it: a query's own, or a list's `age` filter (GET /tools' `age` and `for_pupils`). */
export interface AgeFilter {
  readonly age: number;
  readonly answers: readonly string[];
}
/** The `for_pupils` answers a reading keeps (IN_CLASS or ALONE), or null when it states no age. */
export const keptAnswers = (reading: QueryReading): readonly AgeFilterAnswer[] | null => (reading.age === null ? null : reading.ageInClass ? IN_CLASS : ALONE);

/** The sets a query's constraints keep: per entry of `school_facts` (`facts`, in the same order), the free tier, per age. */
export interface ConstraintSets {
  readonly facts: readonly SchoolFactHint[];
  readonly factSets: readonly Bitset[];
  readonly free: Bitset;
  readonly ageSet: AgeSet;
}

/**
 * What a search found, kept to the constraints its query states: the school facts, the free
 * tier and the pupils' age are filters, as GET /tools' own (docs/search.md, "Constraints are
 * filters"). When they keep nothing, nothing is found, and `understood.without` says how many
 * tools the search finds without them.
 */
export function constrained(found: SearchResult, sets: ConstraintSets): SearchResult {
  const kept = keptByConstraints(found.understood, sets);
  if (kept === null) return found;
  return { ranked: found.ranked.filter((doc) => kept.has(doc)), set: found.set.and(kept), understood: { ...found.understood, without: found.set.count() } };
}

/** The tools a query's constraints keep (its school facts, the free tier, the pupils' age), or null when it states none. */
export function keptByConstraints(u: Pick<UnderstoodQuery, 'facts' | 'free' | 'age' | 'forPupils'>, sets: ConstraintSets): Bitset | null {
  let keep: Bitset | null = null;
  const and = (set: Bitset) => (keep = keep === null ? set : keep.and(set));
  for (const fact of u.facts) and(sets.factSets[sets.facts.indexOf(fact)]!);
  if (u.free) and(sets.free);
  if (u.age !== null && u.forPupils !== null) and(sets.ageSet(u.age, u.forPupils));
  return keep;
}

/** What a query was read as: the words searched, those set aside, the levels and subjects it names, a free-of-charge hint, the school facts it asks for, the tools it asks alternatives to. */
export interface UnderstoodQuery {
  readonly words: readonly string[];
  readonly ignored: readonly string[];
  readonly levels: readonly string[];
  readonly subjects: readonly string[];
  readonly free: boolean;
  /** The entries of `school_facts` it asks for (`hors ligne`, `sans compte`). */
  readonly facts: readonly SchoolFactHint[];
  /** The documents the query asks for tools like (`alternative à Kahoot`). */
  readonly similarTo: readonly number[];
  /** The pupils' age it states (« mes élèves de 5e », « 8 ans »), or null. */
  readonly age: number | null;
  /** With `age`, the `for_pupils` answers kept at that age (IN_CLASS or ALONE); null without. */
  readonly forPupils: readonly AgeFilterAnswer[] | null;
  /**
   * When it states constraints (school facts, free of charge, the pupils' age), which are
   * filters: how many tools the search finds without them; null when it states none.
   */
  readonly without: number | null;
  /** The positions, among the query's words as typed (analyzer.ts, tokenize), of the words that state its constraints. */
  readonly constraintWords: readonly number[];
    /** The same for the words that name its levels. */
  readonly levelWords: readonly number[];
  /** The same for the words that name its subjects (a subject's name of several words whole: « sciences de la vie »). */
  readonly subjectWords: readonly number[];
  /** The same for the words that name an exam or a level only one school system names (`exams`: « brevet », « secondaire 2 »), among `levelWords`. */
  readonly examWords: readonly number[];
}

export function understood(words: readonly string[], reading: QueryReading | null, facts: readonly SchoolFactHint[], typedAt: ((i: number) => number) | null = null): UnderstoodQuery {
  if (reading === null) return { words, ignored: [], levels: [], subjects: [], free: false, facts: [], similarTo: [], age: null, forPupils: null, without: null, constraintWords: [], levelWords: [], subjectWords: [], examWords: [] };
  const at = (k: number) => (typedAt === null ? k : typedAt(k));
  const constraintWords = new Set<number>();
  for (const [from, length] of reading.constraints) for (let k = from; k < from + length; k++) constraintWords.add(at(k));
  const levelWords = new Set<number>();
  const subjectWords = new Set<number>();
  reading.roles.forEach((role, k) => (role === Role.Level ? levelWords.add(at(k)) : role === Role.Subject && subjectWords.add(at(k))));
  for (const [from, length] of reading.phrases) if (reading.roles[from] === Role.Subject) for (let k = from; k < from + length; k++) subjectWords.add(at(k));
  const searched = reading.roles.every((r) => r === Role.Stop);
  return {
    words: words.filter((_, i) => searched || reading.roles[i] === Role.Content || reading.roles[i] === Role.Subject || reading.roles[i] === Role.Topic),
    ignored: words.filter((_, i) => reading.roles[i] === Role.Filler || reading.roles[i] === Role.Alternative),
    levels: reading.levels,
    subjects: reading.subjects,
    free: reading.free,
    facts: reading.facts.map((k) => facts[k]!),
    similarTo: reading.similarTo,
    age: reading.age,
    forPupils: keptAnswers(reading),
    without: null,
    constraintWords: [...constraintWords].sort((a, b) => a - b),
    levelWords: [...levelWords].sort((a, b) => a - b),
    subjectWords: [...subjectWords].sort((a, b) => a - b),
    examWords: reading.examsAt.flatMap(([from, length]) => Array.from({ length }, (_, k) => at(from + k))),
  };
}
