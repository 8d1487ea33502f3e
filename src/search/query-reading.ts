/**
 * What a query says before any tool is matched (docs/search.md, "Reading a query"): the
 * words of conversation that no tool must contain (`je cherche`, `j'ai besoin d'`, `is there`,
 * `app`), the levels and subjects it names (`6e`, `cycle 3`, `SVT`, `hg`) — soft constraints
 * that rank the tools that have them first and never by themselves empty the result — and
 * whether it asks for tools at no charge (`gratuit`, `free`). The lists are content
 * (content/search-vocabulary.yaml, levels.yaml, subjects.yaml), not code.
 */
import { isStopWordAt } from './analyzer.js';
import type { VocabularyIndex } from '../school/vocabulary.js';

export interface QueryLexicon {
  readonly levels: VocabularyIndex | null;
  readonly subjects: VocabularyIndex | null;
  /** Folded phrases (`je cherche`, `j ai besoin d`). */
  readonly filler: ReadonlySet<string>;
  readonly freeWords: ReadonlySet<string>;
  /** The most words any phrase above has. */
  readonly longest: number;
}

export const EMPTY_LEXICON: QueryLexicon = { levels: null, subjects: null, filler: new Set(), freeWords: new Set(), longest: 1 };

export function buildLexicon(levels: VocabularyIndex | null, subjects: VocabularyIndex | null, filler: readonly string[], freeWords: readonly string[]): QueryLexicon {
  let longest = Math.max(levels?.longestTerm ?? 1, subjects?.longestTerm ?? 1);
  for (const phrase of [...filler, ...freeWords]) longest = Math.max(longest, phrase.split(' ').length);
  return { levels, subjects, filler: new Set(filler), freeWords: new Set(freeWords), longest };
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
  Stop,
}

export interface QueryReading {
  /** Per word of the query, its role. */
  readonly roles: readonly Role[];
  /** The levels and subjects it names (slugs, vocabulary order kept as met). */
  readonly levels: readonly string[];
  readonly subjects: readonly string[];
  /** The subjects of its topic words. */
  readonly topicSubjects: readonly string[];
  readonly free: boolean;
  /** Subject names of several words (`sciences de la vie et de la terre`), as [first word, word count]: each is searched as one unit. */
  readonly phrases: ReadonlyArray<readonly [number, number]>;
}

/**
 * Reads the folded words of a query, the longest phrase first at each word: a filler phrase,
 * a level, a subject, a free word. A one-word stop word (`but`, `ses`) is a level or subject
 * only when typed in capitals (`SES`); `acronyms[i]` says whether word i was.
 */
export function readQuery(words: readonly string[], acronyms: readonly boolean[], lexicon: QueryLexicon): QueryReading {
  const roles: Role[] = words.map((_, i) => (isStopWordAt(words, i) ? Role.Stop : Role.Content));
  const levels: string[] = [];
  const subjects: string[] = [];
  const topicSubjects: string[] = [];
  const phrases: Array<[number, number]> = [];
  let free = false;
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (let length = Math.min(lexicon.longest, words.length - i); length >= 1 && matched === 0; length--) {
      const phrase = words.slice(i, i + length).join(' ');
      const single = length === 1;
      const usable = !single || roles[i] !== Role.Stop || acronyms[i] === true;
      if (lexicon.filler.has(phrase)) {
        mark(roles, i, length, Role.Filler);
        matched = length;
      } else if (lexicon.freeWords.has(phrase)) {
        mark(roles, i, length, Role.Free);
        free = true;
        matched = length;
      } else if (usable && lexicon.levels?.terms.has(phrase)) {
        mark(roles, i, length, Role.Level);
        for (const slug of lexicon.levels.terms.get(phrase)!) if (!levels.includes(slug)) levels.push(slug);
        matched = length;
      } else if (usable && lexicon.subjects?.terms.has(phrase)) {
        const topic = lexicon.subjects.topics.has(phrase);
        mark(roles, i, length, topic ? Role.Topic : Role.Subject);
        const list = topic ? topicSubjects : subjects;
        if (length > 1) phrases.push([i, length]);
        for (const slug of lexicon.subjects.terms.get(phrase)!) if (!list.includes(slug)) list.push(slug);
        matched = length;
      }
    }
    i += Math.max(1, matched);
  }
  return { roles, levels, subjects, topicSubjects, free, phrases };
}

function mark(roles: Role[], from: number, length: number, role: Role): void {
  for (let k = from; k < from + length; k++) if ((role !== Role.Subject && role !== Role.Topic) || roles[k] !== Role.Stop) roles[k] = role;
}
