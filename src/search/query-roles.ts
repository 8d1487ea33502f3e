/**
 * What the reading of a query works with (query-reading.ts, pupil-ages.ts): the lexicon it
 * reads with, the role each word gets, and how a phrase is marked with one.
 */
import type { VocabularyIndex } from '../school/vocabulary.js';

export interface QueryLexicon {
  readonly levels: VocabularyIndex | null;
  readonly subjects: VocabularyIndex | null;
  /** Folded phrases (`je cherche`, `j ai besoin d`). */
  readonly filler: ReadonlySet<string>;
  readonly freeWords: ReadonlySet<string>;
  /**
   * Folded phrases asking for a school fact → the index of its entry in `school_facts`, and
   * whether its words are searched too: those the synonyms know as an expression (`hors ligne`,
   * `open source`), which tools say of themselves; not `sans compte`, which finds « compte ».
   */
  readonly facts: ReadonlyMap<string, { entry: number; searched: boolean }>;
  /** Folded phrases naming an exam or a diploma (`brevet`, `bac pro`, `ceb`) → the index of its entry in `exams`. */
  readonly exams: ReadonlyMap<string, number>;
  /** Folded phrases asking for tools like a named one (`alternative a`, `comme`, `similar to`). */
  readonly alternatives: ReadonlySet<string>;
  /** Folded phrases after which a query says what its lesson is about (`sur`, `about`, `au sujet de`). */
  readonly about: ReadonlySet<string>;
  /** Folded words that say a query is about teaching (`eleves`, `classe`, `students`). */
  readonly classroom: ReadonlySet<string>;
  /** Folded expressions whose words have another sense there (`seconde guerre mondiale`): read as nothing but words to find. */
  readonly otherSenses: ReadonlySet<string>;
  /** Folded English word → the folded French words of its English sense (`lecture` → `cours`). */
  readonly englishSenses: ReadonlyMap<string, readonly string[]>;
  /** Words of the English side of the translations that their French side never writes (`recording`, `software`): a query of them reads as English. */
  readonly englishWords: ReadonlySet<string>;
  /** The most words any phrase above has. */
  readonly longest: number;
  /** The first word of every phrase above (and of every level's and subject's term): a word that starts none is read as it is. */
  readonly starts: ReadonlySet<string>;
  /** The tools' folded names, the same without spaces, and the words only one name has → the documents of that name. */
  readonly names: ReadonlyMap<string, readonly number[]>;
  /** The most words a name has (at most NAME_WORDS). */
  readonly longestName: number;
  /** Folded words that make a class next to them the pupils' (`eleves`, `mes`, `graders`). */
  readonly pupils: ReadonlySet<string>;
  /** Folded words (one or two) saying the pupils use the tool themselves (« seuls », `by themselves`). */
  readonly onTheirOwn: ReadonlySet<string>;
  /** Folded classes (`cm2`, `5e primaire`, `secondaire 2`) → the usual age of their pupils. */
  readonly classAges: ReadonlyMap<string, number>;
  /** The most words a class has. */
  readonly longestClass: number;
  /** Whether the search knows these folded words as one expression (`homework help`, `royalty free`, `free software`); null: none known. */
  readonly expression: ((words: readonly string[]) => boolean) | null;
  /** The most words such an expression spans, stop words included. */
  readonly longestExpression: number;
}

/** What each word of a query is. */
export const enum Role {
  /** A word to find in the tools. */
  Content,
  /** A subject's name: found in the tools that say it or have the subject. */
  Subject,
  /** A narrower word of a subject (`orthographe`): a word to find, and the subject's tools rank higher. */
  Topic,
  Level,
  Filler,
  Free,
  /** A word asking for a school fact (`hors ligne`): a hint, not a word to find. */
  Fact,
  Stop,
  /** A word asking for tools like the one the query names (`alternative`, `comme`). */
  Alternative,
  /** A word of the name of that tool. */
  Named,
}

/** Marks words [from, from + length) with `role`; a subject's name leaves its stop words as they are (`sciences de la vie`). */
export function mark(roles: Role[], from: number, length: number, role: Role): void {
  for (let k = from; k < from + length; k++) if ((role !== Role.Subject && role !== Role.Topic) || roles[k] !== Role.Stop) roles[k] = role;
}
