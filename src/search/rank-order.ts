/**
 * The order of a search's results: tier (exact name, name prefix, other), units found,
 * typing errors, a level the query names, score, then name order, packed into one number per document so that a
 * native numeric sort orders thousands of matches faster than a comparator over objects.
 */

export const enum Tier {
  Other = 0,
  NamePrefix = 1,
  ExactName = 2,
}

/**
 * Documents in ranking order: tier, a strong match (not only in the long description), units
 * found (higher first), typing errors (fewer first), having a level the query names (first),
 * score (higher first, to 0.01), then document (name order). When the query names a level
 * (`levelFirst`), the strong match comes after the level: a tool for CM1 whose long
 * description says `anglais` before a tool for adults whose description does. Each is packed
 * into one double (2 + 1 + 5 + 5 + 1 + 1 + 22 bits and the document's, at most 16) so that a
 * native numeric sort orders them.
 */
export class RankOrder {
  private readonly keys: Float64Array;
  private readonly docSpace: number;
  private used = 0;
  /** Larger directories than 2^16 fall back to a comparator. */
  private readonly entries: Array<{ doc: number; key: number[] }> | null;

  constructor(capacity: number, documents: number) {
    this.docSpace = 2 ** Math.max(1, Math.ceil(Math.log2(documents + 1)));
    // The keys live until ranked() only: one buffer serves every search (one at a time).
    if (keysScratch.length < capacity) keysScratch = new Float64Array(Math.max(capacity, keysScratch.length * 2));
    this.keys = keysScratch;
    this.entries = this.docSpace > 2 ** 16 ? [] : null;
  }

  /** `strong`: found in the name, description or keywords, not only in the long description; `level`: has a level the query names (or it names none); `levelFirst`: the query names one. */
  add(doc: number, tier: number, strong: boolean, covered: number, typos: number, score: number, level = true, levelFirst = false): void {
    const quantized = Math.min(SCORE_SPACE - 1, Math.max(0, Math.round(score * 100)));
    if (this.entries !== null) {
      this.entries.push({ doc, key: levelFirst ? [-tier, 0, -covered, typos, level ? 0 : 1, strong ? 0 : 1, -quantized, doc] : [-tier, strong ? 0 : 1, -covered, typos, level ? 0 : 1, 0, -quantized, doc] });
      return;
    }
    const early = levelFirst ? 0 : strong ? 0 : 1;
    const late = levelFirst && !strong ? 1 : 0;
    const head = (((((2 - tier) * 2 + early) * 32 + (31 - Math.min(covered, 31))) * 32 + Math.min(typos, 31)) * 2 + (level ? 0 : 1)) * 2 + late;
    this.keys[this.used++] = (head * SCORE_SPACE + (SCORE_SPACE - 1 - quantized)) * this.docSpace + doc;
  }

  ranked(): Int32Array {
    if (this.entries !== null) {
      const compare = (a: number[], b: number[]) => a.findIndex((v, i) => v !== b[i]);
      this.entries.sort((a, b) => {
        const i = compare(a.key, b.key);
        return i === -1 ? 0 : a.key[i]! - b.key[i]!;
      });
      return Int32Array.from(this.entries, (e) => e.doc);
    }
    const keys = this.keys.subarray(0, this.used).sort();
    const docs = new Int32Array(keys.length);
    // The document is the key's low bits: key − ⌊key / docSpace⌋·docSpace, exact (a power of
    // two, under 2^53) and inline, where % on doubles is a call.
    const space = this.docSpace;
    for (let k = 0; k < keys.length; k++) docs[k] = keys[k]! - Math.floor(keys[k]! / space) * space;
    return docs;
  }
}

/** The packed keys of the search being ranked, grown on demand. */
let keysScratch = new Float64Array(256);
/** Scores are kept to 0.01 in 22 bits (up to 41,943.03: a query of many rare words). */
const SCORE_SPACE = 2 ** 22;
