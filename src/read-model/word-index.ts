/**
 * Substring search over folded words, answered with bitsets. Every distinct word of the
 * indexed texts (the vocabulary) has a posting list; a query word is expanded to the
 * vocabulary words that contain it (found through a trigram index over the vocabulary,
 * then confirmed with `includes`), and their postings are united into a bitset. A query
 * then costs a few N/32-word operations instead of one check per matching tool.
 */
import { Bitset } from './bitset.js';
import { TrigramIndex } from './trigram-index.js';

const MEMO_LIMIT = 2_000;

export class WordIndex {
  private readonly vocabulary: string[];
  private readonly postings: Int32Array[];
  private readonly grams: TrigramIndex;
  private readonly memo = new Map<string, Bitset>();

  /** `texts[i]`: the folded text of tool `i` (words separated by single spaces). */
  constructor(texts: readonly string[]) {
    const lists = new Map<string, number[]>();
    texts.forEach((text, doc) => {
      if (text === '') return;
      for (const word of new Set(text.split(' '))) {
        const list = lists.get(word);
        if (list) list.push(doc);
        else lists.set(word, [doc]);
      }
    });
    this.size = texts.length;
    this.vocabulary = [...lists.keys()];
    this.postings = this.vocabulary.map((w) => Int32Array.from(lists.get(w)!));
    this.grams = new TrigramIndex(this.vocabulary);
  }

  readonly size: number;

  /** Tools whose text contains `word` (a folded word without spaces) as a substring. */
  containing(word: string): Bitset {
    const memo = this.memo.get(word);
    if (memo) return memo;
    const set = new Bitset(this.size);
    const candidates = this.grams.candidates([word]);
    if (candidates === null) {
      // One- and two-letter words have no trigram: look through the vocabulary.
      for (let v = 0; v < this.vocabulary.length; v++) if (this.vocabulary[v]!.includes(word)) set.addAll(this.postings[v]!);
    } else {
      for (const v of candidates) if (this.vocabulary[v]!.includes(word)) set.addAll(this.postings[v]!);
    }
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(word, set);
    return set;
  }

  /** Tools whose text contains every word. */
  containingAll(words: readonly string[]): Bitset {
    let set = this.containing(words[0]!);
    for (let i = 1; i < words.length; i++) set = set.and(this.containing(words[i]!));
    return set;
  }
}
