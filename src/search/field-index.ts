/**
 * One searchable field (a tool's name, or its short description) in a few flat typed arrays:
 * for each document, its terms in text order; for each term, the documents holding it and how
 * often. Flat arrays with offsets rather than an array per document and per term: at 100,000
 * tools that is a handful of objects instead of half a million, for the garbage collector
 * and for memory (docs/performance.md).
 */

import type { Steps } from '../slices.js';

/**
 * Terms of one field, as they are indexed document after document. `stride` 3 keeps each
 * token's position and span (proximity, phrases); 1 keeps its term only (the long
 * description, whose distinct terms are all the search reads).
 */
export class FieldBuilder {
  private tokens = new Int32Array(4096);
  private used = 0;
  private readonly offsets: number[] = [0];
  private readonly lengths: number[] = [];

  constructor(readonly stride: 1 | 3 = 3) {}

  /** Adds the next document's tokens: term ids with their position and span in words (read only at stride 3). */
  add(terms: ArrayLike<number>, positions: ArrayLike<number>, spans: ArrayLike<number>, words: number): void {
    const need = this.used + terms.length * this.stride;
    if (need > this.tokens.length) {
      const grown = new Int32Array(Math.max(need, this.tokens.length * 2));
      grown.set(this.tokens.subarray(0, this.used));
      this.tokens = grown;
    }
    if (this.stride === 1) {
      for (let k = 0; k < terms.length; k++) this.tokens[this.used++] = terms[k]!;
    } else {
      for (let k = 0; k < terms.length; k++) {
        this.tokens[this.used++] = terms[k]!;
        this.tokens[this.used++] = positions[k]!;
        this.tokens[this.used++] = spans[k]!;
      }
    }
    this.offsets.push(this.used);
    this.lengths.push(words);
  }

  /** The field, once every document is added and the number of distinct terms is known. */
  *finish(termCount: number): Steps<FieldIndex> {
    const documents = this.lengths.length;
    const stride = this.stride;
    const tokens = this.tokens.slice(0, this.used);
    this.tokens = new Int32Array(0);
    const tokenOffsets = Int32Array.from(this.offsets);
    // Postings in two passes over the tokens: count the documents per term, then fill them
    // in document order (so each list is ascending), adding up repeats as the frequency.
    const lastDoc = new Int32Array(termCount).fill(-1);
    const postingOffsets = new Int32Array(termCount + 1);
    for (let doc = 0; doc < documents; doc++) {
      for (let k = tokenOffsets[doc]!; k < tokenOffsets[doc + 1]!; k += stride) {
        const t = tokens[k]!;
        if (lastDoc[t] !== doc) {
          lastDoc[t] = doc;
          postingOffsets[t + 1]!++;
        }
      }
      if (doc % 10_000 === 9_999) yield;
    }
    for (let t = 0; t < termCount; t++) postingOffsets[t + 1]! += postingOffsets[t]!;
    const postingDocs = new Int32Array(postingOffsets[termCount]!);
    const postingFrequencies = new Uint8Array(postingOffsets[termCount]!);
    const cursor = postingOffsets.slice(0, termCount);
    lastDoc.fill(-1);
    for (let doc = 0; doc < documents; doc++) {
      for (let k = tokenOffsets[doc]!; k < tokenOffsets[doc + 1]!; k += stride) {
        const t = tokens[k]!;
        if (lastDoc[t] !== doc) {
          lastDoc[t] = doc;
          postingDocs[cursor[t]!] = doc;
          postingFrequencies[cursor[t]!++] = 1;
        } else if (postingFrequencies[cursor[t]! - 1]! < 255) postingFrequencies[cursor[t]! - 1]!++;
      }
      if (doc % 10_000 === 9_999) yield;
    }
    const lengths = Uint16Array.from(this.lengths, (l) => Math.min(l, 65535));
    let sum = 0;
    for (const l of lengths) sum += l;
    return new FieldIndex(tokens, tokenOffsets, postingDocs, postingFrequencies, postingOffsets, lengths, documents === 0 ? 1 : Math.max(1, sum / documents), stride);
  }
}

export class FieldIndex {
  constructor(
    /** [term, position, span] of every document's tokens, one after the other (at stride 1: its terms only). */
    readonly tokens: Int32Array,
    /** Document d's tokens are tokens[tokenOffsets[d] … tokenOffsets[d + 1]). */
    readonly tokenOffsets: Int32Array,
    /** Documents holding each term, ascending: those of term t at [postingOffsets[t], postingOffsets[t + 1]). */
    readonly postingDocs: Int32Array,
    /** How often the term occurs in that document (up to 255). */
    readonly postingFrequencies: Uint8Array,
    readonly postingOffsets: Int32Array,
    /** Words per document. */
    readonly lengths: Uint16Array,
    readonly averageLength: number,
    /** Int32s per token in `tokens`: 3, or 1 for a field without positions. */
    readonly stride: 1 | 3 = 3,
  ) {}

  /** The same postings without the per-document tokens (a field no ranking step reads token by token). */
  withoutTokens(): FieldIndex {
    return new FieldIndex(new Int32Array(0), new Int32Array(this.tokenOffsets.length), this.postingDocs, this.postingFrequencies, this.postingOffsets, this.lengths, this.averageLength, this.stride);
  }

  /** Whether document `doc` holds term `t` (a binary search in the term's list). */
  holds(t: number, doc: number): boolean {
    let lo = this.postingOffsets[t]!;
    let hi = this.postingOffsets[t + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.postingDocs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.postingOffsets[t + 1]! && this.postingDocs[lo] === doc;
  }

  /** How many documents hold term `t`. */
  count(t: number): number {
    return this.postingOffsets[t + 1]! - this.postingOffsets[t]!;
  }
}
