/**
 * How close each tool is to a named one (docs/search.md, "Tools like a named one"): what a
 * query for alternatives (`alternative à Kahoot`, `comme Padlet`) finds, and the catalogue's
 * « Outils proches ».
 */
import { Bitset } from '../bitset.js';
import { DESCRIPTION, KEYWORDS, type SearchIndexData } from './index-data.js';

/**
 * Tools like a named one (`alternative à Kahoot`): per term of the named tool's keywords (its
 * tags and category) and short description, its inverse document frequency, counted where
 * the other tool has the term — in its keywords at full weight, its short description at
 * ALIKE_DESCRIPTION — plus ALIKE_SHARED per level and subject both have. The closest scores
 * ALIKE_SCORE, the others in proportion; those under ALIKE_MIN_SHARE of the closest are left out.
 */
const ALIKE_DESCRIPTION = 0.5;
const ALIKE_SHARED = 0.5;
const ALIKE_SCORE = 12;
const ALIKE_MIN_SHARE = 0.25;

export interface Alike {
  /** The tools close enough to be an answer, the named ones aside. */
  readonly set: Bitset;
  /** Per tool, its closeness in score units (ALIKE_SCORE for the closest), 0 outside `set`. */
  readonly score: Float32Array;
  /** The named tools. */
  readonly named: Bitset;
}

/** How close each tool is to the `named` ones (ALIKE_SCORE), the set of those close enough, and the named ones' set. */
export function alikeTo(ix: SearchIndexData, named: readonly number[]): Alike {
  const n = ix.size;
  const namedSet = new Bitset(n);
  namedSet.addAll(named);
  // Each term of the named tools, with the weight of the field it is in (keywords first).
  const termWeight = new Map<number, number>();
  for (const [field, weight] of [[KEYWORDS, 1], [DESCRIPTION, ALIKE_DESCRIPTION]] as const) {
    const f = ix.fields[field];
    for (const doc of named) {
      for (let k = f.tokenOffsets[doc]!; k < f.tokenOffsets[doc + 1]!; k += 3) {
        const t = f.tokens[k]!;
        termWeight.set(t, Math.max(termWeight.get(t) ?? 0, weight));
      }
    }
  }
  const raw = new Float64Array(n);
  for (const [t, weight] of termWeight) {
    const idf = Math.log(n / Math.max(1, ix.documentFrequency[t]!));
    if (idf <= 0) continue;
    for (const [field, other] of [[KEYWORDS, 1], [DESCRIPTION, ALIKE_DESCRIPTION]] as const) {
      const f = ix.fields[field];
      for (let p = f.postingOffsets[t]!; p < f.postingOffsets[t + 1]!; p++) raw[f.postingDocs[p]!]! += idf * weight * other;
    }
  }
  const shared = [...ix.levelSets.values(), ...ix.subjectSets.values()].filter((set) => named.some((doc) => set.has(doc)));
  let best = 0;
  for (let doc = 0; doc < n; doc++) {
    if (raw[doc] === 0) continue;
    if (namedSet.has(doc)) {
      raw[doc] = 0;
      continue;
    }
    for (const set of shared) if (set.has(doc)) raw[doc]! += ALIKE_SHARED;
    if (raw[doc]! > best) best = raw[doc]!;
  }
  const set = new Bitset(n);
  const score = new Float32Array(n);
  if (best === 0) return { set, score, named: namedSet };
  for (let doc = 0; doc < n; doc++) {
    if (raw[doc]! < best * ALIKE_MIN_SHARE || raw[doc] === 0) continue;
    set.add(doc);
    score[doc] = (ALIKE_SCORE * raw[doc]!) / best;
  }
  return { set, score, named: namedSet };
}
