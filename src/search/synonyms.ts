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
  /** The most terms any key has: how far ahead a query is read for a phrase. */
  readonly longestKey: number;
  /** The first term of every key of two terms or more: a query's term that starts none is no phrase's start. */
  private readonly starts = new Set<string>();

  constructor(set: SynonymSet) {
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
  }

  /** What the expression with these terms also finds (none: an empty list). */
  alternatives(terms: readonly string[]): readonly SynonymAlternative[] {
    return this.byKey.get(terms.join(' ')) ?? [];
  }

  has(terms: readonly string[]): boolean {
    return (terms.length < 2 || this.starts.has(terms[0]!)) && this.byKey.has(terms.join(' '));
  }
}
