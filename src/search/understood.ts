/** What a query was read as (`meta.query`), from its reading (query-reading.ts). */
import type { SchoolFactHint } from '../domain.js';
import { Role, type QueryReading } from './query-reading.js';

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
  /**
   * When it states constraints (school facts, free of charge, the pupils' age), which are
   * filters: how many tools the search finds without them; null when it states none.
   */
  readonly without: number | null;
  /** The positions, among the query's words as typed (analyzer.ts, tokenize), of the words that state its constraints. */
  readonly constraintWords: readonly number[];
  /** The same for the words that name its levels and subjects (a subject's name of several words whole: « sciences de la vie »). */
  readonly schoolWords: readonly number[];
}

export function understood(words: readonly string[], reading: QueryReading | null, facts: readonly SchoolFactHint[], typedAt: ((i: number) => number) | null = null): UnderstoodQuery {
  if (reading === null) return { words, ignored: [], levels: [], subjects: [], free: false, facts: [], similarTo: [], age: null, without: null, constraintWords: [], schoolWords: [] };
  const at = (k: number) => (typedAt === null ? k : typedAt(k));
  const constraintWords = new Set<number>();
  for (const [from, length] of reading.constraints) for (let k = from; k < from + length; k++) constraintWords.add(at(k));
  const schoolWords = new Set<number>();
  reading.roles.forEach((role, k) => (role === Role.Level || role === Role.Subject) && schoolWords.add(at(k)));
  for (const [from, length] of reading.phrases) if (reading.roles[from] === Role.Subject) for (let k = from; k < from + length; k++) schoolWords.add(at(k));
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
    without: null,
    constraintWords: [...constraintWords].sort((a, b) => a - b),
    schoolWords: [...schoolWords].sort((a, b) => a - b),
  };
}
