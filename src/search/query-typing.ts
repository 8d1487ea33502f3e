/**
 * How a query's words were typed, which folding forgets: as acronyms (`ENT`, `SES`), or joined
 * by hyphens into a compound (`lave-linge`). Per folded word, in the order of tokenize.
 */
import { tokenize } from './analyzer.js';
import { readQuery } from './query-reading.js';
import { inEnglish } from './query-english.js';
import type { QueryLexicon } from './query-roles.js';

/**
 * The first step of a search: the words (English ones put in French: `lecture`, `college`),
 * how they were typed, and the role of each (query-reading.ts); no reading for no word or an
 * empty directory (`empty`).
 */
export function readSentence(q: string, lexicon: QueryLexicon, empty: boolean) {
  const typed = tokenize(q).map((t) => t.word);
  const english = inEnglish(typed, lexicon);
  const words = english?.words ?? typed;
  const typedAt = english === null ? null : (i: number) => english.from[i]!;
  if (words.length === 0 || empty) return { words, typedAt, flags: null, reading: null };
  const flags = typedFlags(q, typed, english);
  return { words, typedAt, flags, reading: readQuery(words, flags.acronyms, lexicon) };
}

/**
 * Per word searched, whether it was typed as an acronym and joined by a hyphen (acronymFlags,
 * hyphenFlags), `typed` being the query's folded words and `english` what inEnglish made of
 * them: a word put in for another was typed as neither.
 */
export function typedFlags(q: string, typed: readonly string[], english: { words: string[]; from: number[] } | null): { acronyms: boolean[]; hyphens: boolean[] | null } {
  const asTyped = (flags: boolean[] | null) => (english === null || flags === null ? flags : english.from.map((i, k) => flags[i]! && english.words[k] === typed[i]));
  return { acronyms: asTyped(acronymFlags(q, typed.length))!, hyphens: asTyped(hyphenFlags(q, typed.length)) };
}

/** `q` as typed, accents taken off but case kept, cut at anything that is not a letter or a digit, the separators kept at odd places. */
function typedPieces(q: string): string[] {
  return q.normalize('NFKD').replace(/\p{M}+/gu, '').split(/([^\p{L}\p{N}]+)/u);
}

/** Per folded word of `q`, whether it was typed as an acronym (`ENT`, `SES`, `TBI`: two capitals or more, nothing lower case). */
export function acronymFlags(q: string, count: number): boolean[] {
  // Most queries have no capital letter at all: nothing to look at word by word.
  if (q === q.toLowerCase()) return new Array<boolean>(count).fill(false);
  const typed = typedPieces(q).filter((w, k) => k % 2 === 0 && w !== '');
  return Array.from({ length: count }, (_, i) => {
    const w = typed[i] ?? '';
    return /^[\p{Lu}\d]{2,}$/u.test(w) && /\p{Lu}.*\p{Lu}/u.test(w);
  });
}

/**
 * Per folded word, whether it was typed joined to a neighbour by a hyphen (`lave-linge`,
 * `porte-vues`): a compound is a word of the language as typed, not a typing error to
 * correct into two others (`wave`, `ligne`). Null when the query has no hyphen, or when its
 * typed words do not line up with the folded ones.
 */
export function hyphenFlags(q: string, count: number): boolean[] | null {
  if (!q.includes('-')) return null;
  const pieces = typedPieces(q);
  if (pieces[0] === '') pieces.splice(0, 2);
  if (pieces.at(-1) === '') pieces.splice(-2, 2);
  // Words at even places, what separates them at odd places.
  if ((pieces.length + 1) / 2 !== count) return null;
  const flags = new Array<boolean>(count).fill(false);
  for (let s = 1; s < pieces.length; s += 2) {
    if (pieces[s] !== '-') continue;
    flags[(s - 1) / 2] = true;
    flags[(s + 1) / 2] = true;
  }
  return flags;
}
