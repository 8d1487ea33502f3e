/**
 * The per-revision search index (docs/search.md): each tool's name and short description cut
 * into terms, their postings per field, the words for typing errors and completions, the
 * category names and the synonyms. Built once per data revision, in slices, then only read.
 */
import { isStopWord, nameTokens, soundKey, termOf, tokenize, type Token } from './analyzer.js';
import type { SynonymSet } from '../domain.js';
import { SynonymTable } from './synonyms.js';
import { Memo } from '../memo.js';
import type { Steps } from '../slices.js';
import { FieldBuilder, type FieldIndex } from './field-index.js';
import { Vocabulary, type FuzzyMatch } from './vocabulary.js';
import { Bitset } from '../bitset.js';
import { foldFrench, foldPieces } from '../text/french-text.js';

export interface SearchDocument {
  name: string;
  description: string;
  /** The name of the tool's category: searched with the tags, and a unit it names ranks the tool higher. */
  category?: string;
  /** Keywords (tags, `ia-generative`): searched as words, as the category's name. */
  tags?: readonly string[];
  /** The long description: searched at a low weight, and only for words typed whole. */
  long?: string;
  /** The school levels and subjects (slugs), for a query that names them (query-reading.ts). */
  levels?: readonly string[] | null;
  subjects?: readonly string[] | null;
  /** The pricing model, for a query asking for tools at no charge. */
  pricing?: string;
}

export const NAME = 0;
export const DESCRIPTION = 1;
/** The tags and the category's name. */
export const KEYWORDS = 2;
/** The long description: each distinct term once, without positions (no phrase, no proximity). */
export const LONG = 3;
/** Fields whose match counts as a strong one: a tool found through them ranks above one found only in its long description. */
export const STRONG_FIELDS = 3;
/** Distinct query words whose corrections and terms are kept. */
export const WORD_MEMO_LIMIT = 8_000;

export interface SearchIndexData {
  readonly size: number;
  readonly vocabulary: Vocabulary;
  /** Vocabulary index → term id. */
  readonly surfaceTerm: Int32Array;
  /** Per term id, the vocabulary indices of its words (those of names, descriptions and keywords), from surfaceOffsets[t] to surfaceOffsets[t + 1]. */
  readonly surfaceOffsets: Int32Array;
  readonly surfacesOfTerm: Int32Array;
  readonly termIds: ReadonlyMap<string, number>;
  /** The name, the short description, the keywords, the long description. */
  readonly fields: readonly [FieldIndex, FieldIndex, FieldIndex, FieldIndex];
  /** Documents holding the term in either field. */
  readonly documentFrequency: Int32Array;
  /** Per document, the folded name. */
  readonly names: readonly string[];
  /** The same without spaces (`chat gpt` and `chatgpt` name one tool). */
  readonly compactNames: readonly string[];
  /** Every compact name: whether a word of a query names a tool whole (`chatgpt`). */
  readonly wholeNames: ReadonlySet<string>;
  /** The sound (soundKey) of each word of five letters or more of the tools' names → the vocabulary indices of those words. */
  readonly nameSounds: ReadonlyMap<string, readonly number[]>;
  /** Per document, bit p set when the name's word p is not a stop word. */
  readonly nameContent: Int32Array;
  /** Per document, its category (an index into `categoryTerms`). */
  readonly categoryOf: Int32Array;
  /** Per category, the terms of its name. */
  readonly categoryTerms: ReadonlyArray<ReadonlySet<number>>;
  /** Term → the categories whose name holds it. */
  readonly categoriesOfTerm: ReadonlyMap<number, number[]>;
  readonly synonyms: SynonymTable;
  /** The words within reach of typing errors of a word (queries share their words). */
  readonly typoMemo: Memo<string, readonly FuzzyMatch[]>;
  /** The term of a query word (Snowball's stemmer is a good part of a short query's cost). */
  readonly termMemo: Memo<string, string>;
  /** Per level and subject slug, the documents that have it. */
  readonly levelSets: ReadonlyMap<string, Bitset>;
  readonly subjectSets: ReadonlyMap<string, Bitset>;
  /** Per document, how many subjects it has besides `transversal` (a tool made for one subject is the closer answer to it). */
  readonly subjectCounts: Uint8Array;
  /** Documents free of charge, and freemium ones. */
  readonly free: Bitset;
  readonly freemium: Bitset;
}

/**
 * Builds the index, pausing (`yield`) every few hundred documents and between phases, so
 * that a server building the next revision's index keeps answering requests meanwhile
 * (read-model.ts).
 */
export function* buildIndexData(documents: readonly SearchDocument[], synonymSet: SynonymSet, english: readonly string[] = []): Steps<SearchIndexData> {
  const n = documents.length;
  const termIds = new Map<string, number>();
  const surfaces = new Map<string, number>();
  const termOfWord = (word: string): number => {
    let id = surfaces.get(word);
    if (id === undefined) {
      const term = termOf(word);
      id = termIds.get(term);
      if (id === undefined) termIds.set(term, (id = termIds.size));
      surfaces.set(word, id);
    }
    return id;
  };
  /**
   * A word of the long description: a term, but not a word typing errors or completions lead
   * to. Each distinct word is stemmed once (long descriptions repeat their words across tools:
   * stemming every occurrence was most of the start-up at 100,000 tools).
   */
  const longSurfaces = new Map<string, number>();
  const termOfLongWord = (word: string): number => {
    let id = longSurfaces.get(word);
    if (id === undefined) {
      id = surfaces.get(word);
      if (id === undefined) {
        const term = termOf(word);
        id = termIds.get(term);
        if (id === undefined) termIds.set(term, (id = termIds.size));
      }
      longSurfaces.set(word, id);
    }
    return id;
  };
  /** A piece of long text (foldPieces) → the terms of its folded words, folded once per distinct piece. */
  const pieceTerms = new Map<string, readonly number[]>();
  const termsOfPiece = (piece: string): readonly number[] => {
    let ids = pieceTerms.get(piece);
    if (ids === undefined) {
      const folded = foldFrench(piece);
      ids = folded === '' ? [] : folded.split(' ').map(termOfLongWord);
      pieceTerms.set(piece, ids);
    }
    return ids;
  };
  const builders = [new FieldBuilder(), new FieldBuilder(), new FieldBuilder(), new FieldBuilder(1)] as const;
  const add = (field: number, tokens: Token[], words: number) =>
    builders[field]!.add(tokens.map((t) => termOfWord(t.word)), tokens.map((t) => t.position), tokens.map((t) => t.span), words);
  const names: string[] = new Array(n);
  const nameContent = new Int32Array(n);
  for (let doc = 0; doc < n; doc++) {
    const d = documents[doc]!;
    const words = tokenize(d.name);
    names[doc] = words.map((w) => w.word).join(' ');
    for (const w of words) if (w.position < 31 && !isStopWord(w.word)) nameContent[doc]! |= 1 << w.position;
    add(NAME, nameTokens(d.name), words.length);
    const description = tokenize(d.description);
    add(DESCRIPTION, description, description.length);
    const keywords = tokenize([...(d.tags ?? []), d.category ?? ''].join(' '));
    add(KEYWORDS, keywords, keywords.length);
    if (doc % 500 === 499) yield;
  }
  // After the other fields, so that the vocabulary of corrections and completions is theirs.
  // Distinct terms only, no positions: the search reads no more of this field.
  // A term's last document (plus one) marks it as met in this one: no set per document.
  let met = new Int32Array(termIds.size + 4_096);
  const distinct: number[] = [];
  for (let doc = 0; doc < n; doc++) {
    distinct.length = 0;
    let words = 0;
    for (const piece of foldPieces(documents[doc]!.long ?? '')) {
      const ids = termsOfPiece(piece);
      words += ids.length;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k]!;
        if (id >= met.length) {
          const grown = new Int32Array(Math.max(id + 1, met.length * 2));
          grown.set(met);
          met = grown;
        }
        if (met[id] === doc + 1) continue;
        met[id] = doc + 1;
        distinct.push(id);
      }
    }
    builders[LONG].add(distinct, distinct, distinct, words);
    if (doc % 500 === 499) yield;
  }
  pieceTerms.clear();
  longSurfaces.clear();
  yield;
  const vocabulary = yield* Vocabulary.build(surfaces.keys());
  const surfaceTerm = Int32Array.from(vocabulary.words, (w) => surfaces.get(w)!);
  yield;
  const terms = termIds.size;
  const surfaceOffsets = new Int32Array(terms + 1);
  for (const t of surfaceTerm) surfaceOffsets[t + 1]!++;
  for (let t = 0; t < terms; t++) surfaceOffsets[t + 1]! += surfaceOffsets[t]!;
  const surfacesOfTerm = new Int32Array(surfaceTerm.length);
  const filled = surfaceOffsets.slice(0, terms);
  surfaceTerm.forEach((t, v) => (surfacesOfTerm[filled[t]!++] = v));
  const built = [
    yield* builders[NAME].finish(terms),
    yield* builders[DESCRIPTION].finish(terms),
    yield* builders[KEYWORDS].finish(terms),
    yield* builders[LONG].finish(terms),
  ] as const;
  yield;
  // Documents holding the term in any field: each document counted once per term.
  const df = new Int32Array(terms);
  const lastDoc = new Int32Array(terms).fill(-1);
  for (let doc = 0; doc < n; doc++) {
    for (const f of built) {
      for (let k = f.tokenOffsets[doc]!; k < f.tokenOffsets[doc + 1]!; k += f.stride) {
        const t = f.tokens[k]!;
        if (lastDoc[t] !== doc) {
          lastDoc[t] = doc;
          df[t]!++;
        }
      }
    }
    if (doc % 5_000 === 4_999) yield;
  }
  // The long description's tokens served the counts above; its postings are all a search reads.
  const fields = [built[NAME], built[DESCRIPTION], built[KEYWORDS], built[LONG].withoutTokens()] as const;
  const setsOf = (pick: (d: SearchDocument) => readonly string[] | null | undefined) => {
    const sets = new Map<string, Bitset>();
    documents.forEach((d, doc) => {
      for (const slug of pick(d) ?? []) {
        let set = sets.get(slug);
        if (set === undefined) sets.set(slug, (set = new Bitset(n)));
        set.add(doc);
      }
    });
    return sets;
  };
  const pricingSet = (model: string) => {
    const set = new Bitset(n);
    documents.forEach((d, doc) => d.pricing === model && set.add(doc));
    return set;
  };
  const categoryNames = [...new Set(documents.map((d) => d.category ?? ''))];
  const categoryOf = Int32Array.from(documents, (d) => categoryNames.indexOf(d.category ?? ''));
  const categoryTerms = categoryNames.map((c) => new Set(tokenize(c).flatMap((t) => (isStopWord(t.word) ? [] : [termIds.get(termOf(t.word)) ?? -1]))));
  const categoriesOfTerm = new Map<number, number[]>();
  for (const [c, ts] of categoryTerms.entries()) {
    for (const t of ts) categoriesOfTerm.set(t, [...(categoriesOfTerm.get(t) ?? []), c]);
  }
  const compactNames = names.map((s) => s.replaceAll(' ', ''));
  const nameSounds = new Map<string, number[]>();
  for (const word of new Set(names.flatMap((name) => name.split(' ')))) {
    const v = word.length >= 5 ? vocabulary.indexOf(word) : -1;
    if (v === -1) continue;
    const key = soundKey(word);
    const known = nameSounds.get(key);
    if (known === undefined) nameSounds.set(key, [v]);
    else known.push(v);
  }
  return {
    size: n, vocabulary, surfaceTerm, surfaceOffsets, surfacesOfTerm, termIds, fields, documentFrequency: df, names,
    compactNames, wholeNames: new Set(compactNames), nameSounds, nameContent, categoryOf, categoryTerms, categoriesOfTerm,
    synonyms: new SynonymTable(synonymSet, english), typoMemo: new Memo(WORD_MEMO_LIMIT), termMemo: new Memo(WORD_MEMO_LIMIT),
    levelSets: setsOf((d) => d.levels), subjectSets: setsOf((d) => d.subjects),
    subjectCounts: Uint8Array.from(documents, (d) => Math.min(255, (d.subjects ?? []).filter((s) => s !== 'transversal').length)), free: pricingSet('free'), freemium: pricingSet('freemium'),
  };
}
