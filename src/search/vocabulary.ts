/**
 * The distinct words of the directory, for the two look-ups a query needs besides exact
 * words: the words that start with a prefix (a binary search in sorted order), and the words
 * within a few typing errors of a query word.
 *
 * Typing errors are counted as the optimal-string-alignment distance (insertions, deletions,
 * substitutions and transpositions of adjacent letters, each costing one). The words are kept
 * in a trie of flat arrays as well, walked depth first with one dynamic-programming row per
 * level: a prefix's row is computed once for every word that starts with it, and a branch
 * whose row has no cell within the bound is never entered. The cost follows the number of
 * prefixes within reach of the query, not the size of the vocabulary.
 */

export interface FuzzyMatch {
  /** Index of the word in `words`. */
  index: number;
  /** Typing errors between the query word and the whole word. */
  distance: number;
}

import { runAtOnce, sortInSlices, type Steps } from '../slices.js';

/** Longer words are indexed for exact and prefix look-ups only. */
const MAX_WORD = 48;

export class Vocabulary {
  private readonly rows = new Int32Array((MAX_WORD + 2) * (MAX_WORD + 1));

  private constructor(
    /** Sorted, distinct. */
    readonly words: readonly string[],
    // The trie: node 0 is the root; children are chained through `sibling`.
    private readonly child: Int32Array,
    private readonly sibling: Int32Array,
    private readonly char: Uint16Array,
    /** The index in `words` of the word ending at a node, or -1. */
    private readonly ending: Int32Array,
    /** The longest word below a node (its depth included), to skip branches too long to match. */
    private readonly deepest: Uint8Array,
  ) {}

  static of(words: Iterable<string>): Vocabulary {
    return runAtOnce(Vocabulary.build(words));
  }

  /** Sorts the words and builds the trie, pausing now and then (src/slices.ts). */
  static *build(input: Iterable<string>): Steps<Vocabulary> {
    const words = [...new Set(input)];
    yield* sortInSlices(words, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
    let nodes = 1;
    for (const w of words) nodes += Math.min(w.length, MAX_WORD);
    const child = new Int32Array(nodes).fill(-1);
    const sibling = new Int32Array(nodes).fill(-1);
    const char = new Uint16Array(nodes);
    const ending = new Int32Array(nodes).fill(-1);
    const deepest = new Uint8Array(nodes);
    // Words arrive sorted, so a node's new child always goes after its last one: keep the
    // path of the previous word and its last children to append in constant time.
    const path = new Int32Array(MAX_WORD + 1);
    const lastChild = new Int32Array(nodes).fill(-1);
    let used = 1;
    let previous = '';
    for (let index = 0; index < words.length; index++) {
      const word = words[index]!;
      if (index % 10_000 === 9_999) yield;
      if (word.length > MAX_WORD) continue;
      let depth = 0;
      while (depth < word.length && depth < previous.length && word.charCodeAt(depth) === previous.charCodeAt(depth)) depth++;
      let node = path[depth]!;
      for (let d = depth; d < word.length; d++) {
        const next = used++;
        char[next] = word.charCodeAt(d);
        if (lastChild[node] === -1) child[node] = next;
        else sibling[lastChild[node]!] = next;
        lastChild[node] = next;
        node = next;
        path[d + 1] = node;
      }
      ending[node] = index;
      for (let d = 0; d <= word.length; d++) if (deepest[path[d]!]! < word.length) deepest[path[d]!] = word.length;
      previous = word;
    }
    return new Vocabulary(words, child, sibling, char, ending, deepest);
  }

  /** Index of `word`, or -1. */
  indexOf(word: string): number {
    const i = this.lowerBound(word);
    return this.words[i] === word ? i : -1;
  }

  /** The range [from, to) of the words that start with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    // Every word that starts with the prefix sorts before the prefix followed by U+FFFF.
    return [from, this.lowerBound(`${prefix}\uffff`)];
  }

  private lowerBound(word: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid]! < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Every word within `max` typing errors of `query` (the query word itself included). */
  fuzzy(query: string, max: number): FuzzyMatch[] {
    const found: FuzzyMatch[] = [];
    const m = query.length;
    if (m === 0 || m > MAX_WORD) return found;
    const cols = m + 1;
    const rows = this.rows;
    for (let j = 0; j <= m; j++) rows[j] = j;
    const q = new Uint16Array(m);
    for (let j = 0; j < m; j++) q[j] = query.charCodeAt(j);
    // Depth-first over the trie; the stack holds pairs of a node and its depth. A node is
    // pushed only when a word long enough to match ends below it and it is not too deep.
    let stack = walkStack;
    let top = 0;
    const shortest = m - max;
    for (let c = this.child[0]!; c !== -1; c = this.sibling[c]!) {
      if (this.deepest[c]! < shortest) continue;
      if (top + 2 > stack.length) stack = walkStack = grow(stack);
      stack[top++] = c;
      stack[top++] = 1;
    }
    while (top > 0) {
      const d = stack[--top]!;
      const node = stack[--top]!;
      const row = d * cols;
      const above = row - cols;
      const c = this.char[node]!;
      pathChars[d] = c;
      // Only cells within `max` of the diagonal can be within `max` (Ukkonen's band); the
      // cells just outside it are set out of reach for the next row to read.
      const from = d - max > 1 ? d - max : 1;
      const to = d + max < m ? d + max : m;
      rows[row] = d;
      if (from > 1) rows[row + from - 1] = max + 1;
      if (to < m) rows[row + to + 1] = max + 1;
      let rowMin = from > 1 ? max + 1 : d;
      for (let j = from; j <= to; j++) {
        const qc = q[j - 1]!;
        let v = rows[above + j - 1]! + (qc === c ? 0 : 1);
        const del = rows[above + j]! + 1;
        if (del < v) v = del;
        const ins = rows[row + j - 1]! + 1;
        if (ins < v) v = ins;
        if (d > 1 && j > 1 && c === q[j - 2] && pathChars[d - 1] === qc) {
          const swap = rows[above - cols + j - 2]! + 1;
          if (swap < v) v = swap;
        }
        rows[row + j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (rowMin > max) continue;
      const word = this.ending[node]!;
      if (word !== -1 && to === m && rows[row + m]! <= max) found.push({ index: word, distance: rows[row + m]! });
      if (d + 1 > m + max) continue;
      for (let k = this.child[node]!; k !== -1; k = this.sibling[k]!) {
        if (this.deepest[k]! < shortest) continue;
        if (top + 2 > stack.length) stack = walkStack = grow(stack);
        stack[top++] = k;
        stack[top++] = d + 1;
      }
    }
    return found.sort((a, b) => a.index - b.index);
  }
}

/** The letters on the path being walked, by depth, for transpositions (one walk at a time). */
const pathChars = new Uint16Array(MAX_WORD + 2);
/** The walk's stack of (node, depth) pairs, shared by the walks (one at a time), grown on demand. */
let walkStack: Int32Array = new Int32Array(1_024);
const grow = (stack: Int32Array): Int32Array => {
  const bigger = new Int32Array(stack.length * 2);
  bigger.set(stack);
  return bigger;
};
