/**
 * Candidates for substring search: each document (here, each vocabulary word) is indexed
 * by its trigrams; a query word's candidates are the intersection of its trigrams' posting
 * lists, which the caller confirms with `includes`. Words shorter than three characters
 * have no trigram (`candidates` returns null).
 */

export class TrigramIndex {
  private readonly postings = new Map<string, Int32Array>();

  /** `texts[i]` is the folded text of document `i` (words separated by single spaces). */
  constructor(texts: readonly string[]) {
    const lists = new Map<string, number[]>();
    texts.forEach((text, doc) => {
      const seen = new Set<string>();
      for (const word of text.split(' ')) {
        for (let i = 0; i + 3 <= word.length; i++) seen.add(word.slice(i, i + 3));
      }
      for (const gram of seen) {
        const list = lists.get(gram);
        if (list) list.push(doc);
        else lists.set(gram, [doc]);
      }
    });
    for (const [gram, list] of lists) this.postings.set(gram, Int32Array.from(list));
  }

  /**
   * Documents whose text contains every word, in ascending order. `null` when no word is
   * long enough to use the index (the caller confirms such words on every document).
   */
  candidates(words: readonly string[]): Int32Array | null {
    const grams = new Set<string>();
    for (const word of words) for (let i = 0; i + 3 <= word.length; i++) grams.add(word.slice(i, i + 3));
    if (grams.size === 0) return null;
    const lists: Int32Array[] = [];
    for (const gram of grams) {
      const list = this.postings.get(gram);
      if (!list) return new Int32Array(0);
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    let result = lists[0]!;
    for (let i = 1; i < lists.length && result.length > 0; i++) result = intersect(result, lists[i]!);
    return result;
  }
}

function intersect(small: Int32Array, large: Int32Array): Int32Array {
  const out = new Int32Array(small.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < small.length; i++) {
    const v = small[i]!;
    // Galloping would help for very skewed lists; a linear merge is enough at this size.
    while (j < large.length && large[j]! < v) j++;
    if (j === large.length) break;
    if (large[j] === v) out[n++] = v;
  }
  return out.subarray(0, n);
}
