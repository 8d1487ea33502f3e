/**
 * The distinct words of the directory in sorted order, for the two look-ups a query needs
 * besides exact words: the words that start with a prefix (a binary search), and the words
 * within a few typing errors of a query word.
 *
 * Typing errors are counted as the optimal-string-alignment distance (insertions, deletions,
 * substitutions and transpositions of adjacent letters, each costing one). The search walks
 * the sorted list once, the way it would walk a trie: the dynamic-programming row of a
 * prefix is computed once and shared by every word that starts with it, and as soon as a
 * prefix's row has no cell within the bound, every word that starts with it is skipped with a
 * binary search. The cost follows the number of distinct prefixes within reach of the query,
 * not the size of the vocabulary.
 */

export interface FuzzyMatch {
  /** Index of the word in `words`. */
  index: number;
  /** Typing errors between the query word and the whole word. */
  distance: number;
}

const MAX_WORD = 48;

export class Vocabulary {
  /** Sorted, distinct. */
  readonly words: readonly string[];
  private readonly rows: Int32Array;
  private readonly columns = MAX_WORD + 1;

  constructor(words: Iterable<string>) {
    this.words = [...new Set(words)].sort();
    this.rows = new Int32Array((MAX_WORD + 1) * (MAX_WORD + 1));
  }

  /** Index of `word`, or -1. */
  indexOf(word: string): number {
    const i = this.lowerBound(word);
    return this.words[i] === word ? i : -1;
  }

  /** The range [from, to) of the words that start with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    let lo = from;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid]!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return [from, lo];
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
    const cols = this.columns;
    const rows = this.rows;
    for (let j = 0; j <= m; j++) rows[j] = j;
    const words = this.words;
    let previous = '';
    let i = 0;
    while (i < words.length) {
      const word = words[i]!;
      if (word.length > MAX_WORD || word.length > m + max || word.length < m - max) {
        // Too long or too short to be within reach. The rows still hold `previous`'s prefixes.
        i++;
        continue;
      }
      // Rows up to the common prefix with the previous word are still valid.
      let depth = 0;
      const shared = Math.min(previous.length, word.length);
      while (depth < shared && previous.charCodeAt(depth) === word.charCodeAt(depth)) depth++;
      let pruned = -1;
      for (let d = depth + 1; d <= word.length; d++) {
        const row = d * cols;
        const above = row - cols;
        const c = word.charCodeAt(d - 1);
        rows[row] = d;
        let rowMin = d;
        for (let j = 1; j <= m; j++) {
          const q = query.charCodeAt(j - 1);
          let v = rows[above + j - 1]! + (q === c ? 0 : 1);
          const del = rows[above + j]! + 1;
          if (del < v) v = del;
          const ins = rows[row + j - 1]! + 1;
          if (ins < v) v = ins;
          if (d > 1 && j > 1 && c === query.charCodeAt(j - 2) && word.charCodeAt(d - 2) === q) {
            const swap = rows[above - cols + j - 2]! + 1;
            if (swap < v) v = swap;
          }
          rows[row + j] = v;
          if (v < rowMin) rowMin = v;
        }
        if (rowMin > max) {
          pruned = d;
          break;
        }
      }
      if (pruned !== -1) {
        // No word starting with this prefix can come within reach: jump past them all.
        const [, to] = this.prefixRange(word.slice(0, pruned));
        previous = word.slice(0, pruned - 1);
        i = Math.max(to, i + 1);
        continue;
      }
      const distance = rows[word.length * cols + m]!;
      if (distance <= max) found.push({ index: i, distance });
      previous = word;
      i++;
    }
    return found;
  }
}
