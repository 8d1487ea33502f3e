/**
 * The school vocabularies (levels, subjects) as the query room and the import read them:
 * a slug, or any alias a person types (`6e`, `cycle 3`, `hg`, `P4`, `Cégep`), resolves to the
 * slugs it stands for, case and accents folded. One alias may stand for several slugs.
 */
import type { VocabularyEntry } from '../domain.js';
import { closest, foldFrench } from '../text/french-text.js';

export interface VocabularyIndex<E extends VocabularyEntry = VocabularyEntry> {
  readonly entries: readonly E[];
  /** Folded slug or alias → the slugs it stands for, in vocabulary order. */
  readonly terms: ReadonlyMap<string, readonly string[]>;
  /** Slug → position in the vocabulary (the order `levels` are given in). */
  readonly position: ReadonlyMap<string, number>;
  /** The longest term, in words (for phrase spotting in a query). */
  readonly longestTerm: number;
  /** Folded terms that come only from `topics`: words to find, not names of the entry. */
  readonly topics: ReadonlySet<string>;
}

/** The key a term is looked up by: folded, hyphens and apostrophes as spaces. */
export function termKey(text: string): string {
  return foldFrench(text);
}

export function indexVocabulary<E extends VocabularyEntry>(entries: readonly E[]): VocabularyIndex<E> {
  const terms = new Map<string, string[]>();
  const position = new Map<string, number>();
  const add = (term: string, slug: string) => {
    const key = termKey(term);
    if (key === '') return;
    const list = terms.get(key) ?? [];
    if (!list.includes(slug)) list.push(slug);
    terms.set(key, list);
  };
  entries.forEach((e, i) => {
    position.set(e.slug, i);
    add(e.slug, e.slug);
    add(e.label, e.slug);
    for (const alias of e.aliases) add(alias, e.slug);
  });
  const named = new Set(terms.keys());
  const topics = new Set<string>();
  for (const e of entries) {
    for (const topic of e.topics ?? []) {
      add(topic, e.slug);
      if (!named.has(termKey(topic))) topics.add(termKey(topic));
    }
  }
  for (const list of terms.values()) list.sort((a, b) => position.get(a)! - position.get(b)!);
  let longestTerm = 1;
  for (const key of terms.keys()) longestTerm = Math.max(longestTerm, key.split(' ').length);
  return { entries, terms, position, longestTerm, topics };
}

/** The slugs a typed value stands for, or null when it is neither a slug nor an alias. */
export function resolveTerm(index: VocabularyIndex, value: string): readonly string[] | null {
  return index.terms.get(termKey(value)) ?? null;
}

/** The nearest slug to a value that resolves to nothing (for a 400's `suggestion`). */
export function nearestSlug(index: VocabularyIndex, value: string): string | undefined {
  const key = termKey(value);
  const near = closest(key, index.terms.keys(), 1)[0];
  return near === undefined ? undefined : index.terms.get(near)![0];
}

/** Slugs in vocabulary order, each once. */
export function inVocabularyOrder(index: VocabularyIndex, slugs: Iterable<string>): string[] {
  return [...new Set(slugs)].sort((a, b) => (index.position.get(a) ?? 1e9) - (index.position.get(b) ?? 1e9));
}
