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
  /** How close the named tools are to themselves, on the scale of `score` (the most a tool can be). */
  readonly self: number;
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
  let self = 0;
  for (const [t, weight] of termWeight) {
    const idf = Math.log(n / Math.max(1, ix.documentFrequency[t]!));
    if (idf <= 0) continue;
    self += idf * weight * weight;
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
  if (best === 0) return { set, score, named: namedSet, self: 0 };
  for (let doc = 0; doc < n; doc++) {
    if (raw[doc]! < best * ALIKE_MIN_SHARE || raw[doc] === 0) continue;
    set.add(doc);
    score[doc] = (ALIKE_SCORE * raw[doc]!) / best;
  }
  return { set, score, named: namedSet, self: (ALIKE_SCORE * self) / best };
}

/** How many of the first answers the tools that follow them are close to. */
const NEAR_SEEDS = 3;
/** How close a tool must be to follow them: this share of what the first answers hold (their own closeness to themselves). */
const NEAR_MIN_SELF = 0.3;

/**
 * Fewer answers than a page (`page`): the tools closest to the first ones (NEAR_SEEDS, by the
 * measure of alikeTo, holding at least NEAR_MIN_SELF of what they hold themselves) follow
 * them, closest first, up to a page. The words of a need rarely are all of its answers' words
 * (« une émission pour la radio du collège » finds two audio editors, whose closest are the
 * other audio editors); what follows only adds, after what the words found. Null when nothing
 * is to add.
 */
export function followedByClosest(ix: SearchIndexData, ranked: Int32Array, set: Bitset, page: number): { ranked: Int32Array; set: Bitset } | null {
  if (ranked.length === 0 || ranked.length >= page) return null;
  const near = alikeTo(ix, Array.from(ranked.subarray(0, NEAR_SEEDS)));
  const closest: number[] = [];
  near.set.forEach((doc) => {
    if (!set.has(doc) && near.score[doc]! >= NEAR_MIN_SELF * near.self) closest.push(doc);
  });
  if (closest.length === 0) return null;
  closest.sort((a, b) => near.score[b]! - near.score[a]! || a - b);
  const added = closest.slice(0, page - ranked.length);
  // A copy: the selection's set may be a unit's, kept in the memo.
  const wider = new Bitset(ix.size);
  wider.addSet(set);
  wider.addAll(added);
  const order = new Int32Array(ranked.length + added.length);
  order.set(ranked);
  order.set(added, ranked.length);
  return { ranked: order, set: wider };
}
