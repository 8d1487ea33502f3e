/**
 * The publisher's synonyms (content/synonyms.yaml), compiled for the query side: each
 * expression becomes the sequence of terms the analyzer makes of it (stop words out), and
 * each key (an expression as a query would contain it) maps to the other expressions it
 * also finds, with the weight of that kind of match.
 */
import type { SynonymSet } from '../domain.js';
import { isStopWord, termOf, tokenize } from './analyzer.js';

/** Weights of a match through a word family or through a synonym, an exact match being 1. */
export const FAMILY_WEIGHT = 0.9;
export const SYNONYM_WEIGHT = 0.8;

export interface SynonymAlternative {
  /** The terms of the expression, in order. */
  terms: readonly string[];
  weight: number;
}

/**
 * The terms of an expression as the search compares them: folded, stop words out (unless
 * the expression has nothing else), stemmed. `null` when nothing is left.
 */
export function expressionTerms(expression: string): string[] | null {
  const words = tokenize(expression).map((t) => t.word);
  const content = words.filter((w) => !isStopWord(w));
  const kept = content.length > 0 ? content : words;
  return kept.length === 0 ? null : kept.map(termOf);
}

export class SynonymTable {
  private readonly byKey = new Map<string, SynonymAlternative[]>();
  /** The other English inflections of the translations' one-word terms (`count`, `counts` of `counting`) → that term's key. */
  private readonly inflected = new Map<string, string>();
  /** The most terms any key has: how far ahead a query is read for a phrase. */
  readonly longestKey: number;
  /** The first term of every key of two terms or more: a query's term that starts none is no phrase's start. */
  private readonly starts = new Set<string>();

  /** `english`: the translations' English terms, whose inflections find what they find. */
  constructor(set: SynonymSet, english: readonly string[] = []) {
    const link = (from: string, to: string, weight: number) => {
      const key = expressionTerms(from);
      const terms = expressionTerms(to);
      if (key === null || terms === null || key.join(' ') === terms.join(' ')) return;
      const k = key.join(' ');
      const list = this.byKey.get(k) ?? [];
      const same = list.find((a) => a.terms.join(' ') === terms.join(' '));
      if (same === undefined) list.push({ terms, weight });
      else if (same.weight < weight) list[list.indexOf(same)] = { terms, weight };
      this.byKey.set(k, list);
    };
    const group = (expressions: readonly string[], weight: number) => {
      for (const a of expressions) for (const b of expressions) if (a !== b) link(a, b, weight);
    };
    for (const family of set.families) group(family, FAMILY_WEIGHT);
    for (const equivalents of set.equivalents) group(equivalents, SYNONYM_WEIGHT);
    for (const { term, finds } of set.expansions) for (const expression of finds) link(term, expression, SYNONYM_WEIGHT);
    let longest = 1;
    for (const key of this.byKey.keys()) {
      const terms = key.split(' ');
      longest = Math.max(longest, terms.length);
      if (terms.length > 1) this.starts.add(terms[0]!);
    }
    this.longestKey = longest;
    for (const term of english) {
      const key = expressionTerms(term);
      if (key === null || key.length !== 1 || !/^[a-z]+$/.test(term)) continue;
      for (const form of englishInflections(term)) if (!this.inflected.has(form)) this.inflected.set(form, key[0]!);
    }
  }

  /** What a word the translations name in another English inflection finds (none: an empty list); none below four letters (`run` of `running`). */
  inflection(word: string): readonly SynonymAlternative[] {
    const key = word.length < 4 ? undefined : this.inflected.get(word);
    return key === undefined ? [] : this.alternatives([key]);
  }

  /** What the expression with these terms also finds (none: an empty list). */
  alternatives(terms: readonly string[]): readonly SynonymAlternative[] {
    return this.byKey.get(terms.join(' ')) ?? [];
  }

  has(terms: readonly string[]): boolean {
    return (terms.length < 2 || this.starts.has(terms[0]!)) && this.byKey.has(terms.join(' '));
  }
}

/**
 * The other inflections of an English word, as regular rules make them from the word and its
 * possible bases (`counting` → count, counts, counted; `quiz` → quizzes); not all are words.
 */
export function englishInflections(word: string): string[] {
  if (word.length < 3) return [];
  const bases = [word];
  const base = (b: string) => {
    bases.push(b, `${b}e`);
    if (/([bdgklmnprt])\1$/.test(b)) bases.push(b.slice(0, -1));
  };
  if (word.endsWith('ies')) bases.push(`${word.slice(0, -3)}y`);
  else if (word.endsWith('zzes')) bases.push(word.slice(0, -3));
  else if (/(ss|x|z|ch|sh)es$/.test(word)) bases.push(word.slice(0, -2));
  else if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) bases.push(word.slice(0, -1));
  else if (word.endsWith('ing') && word.length > 5) base(word.slice(0, -3));
  else if (word.endsWith('ed') && word.length > 4) base(word.slice(0, -2));
  const forms = bases.flatMap((b) => {
    const plain = b.endsWith('e') ? b.slice(0, -1) : b;
    const plural = /[^aeiou]y$/.test(b) ? `${b.slice(0, -1)}ies` : /[^z]z$/.test(b) ? `${b}zes` : /(s|x|z|ch|sh)$/.test(b) ? `${b}es` : `${b}s`;
    return [b, plural, `${plain}ing`, `${plain}ed`];
  });
  return [...new Set(forms)].filter((w) => w !== word && w.length >= 3);
}
