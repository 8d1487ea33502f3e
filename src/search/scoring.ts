/**
 * Scoring (docs/search.md): how each document matches a unit's group — BM25 per field, the
 * name weighing three times the description, each unit scored through its best alternative —
 * and the bonuses of the ranking: how much of the name the query covers, and how close
 * together the units stand in the text.
 */
import { Bitset } from '../bitset.js';
import { LONG, NAME, STRONG_FIELDS, type SearchIndexData } from './index-data.js';
import type { Evaluation, Group } from './query-types.js';

/** Name, short description, keywords (tags and category), long description. */
const FIELD_BOOST = [3, 1, 1, 0.3];
const K1 = 1.2;
const B = [0.5, 0.75, 0.3, 0.75];
/** Bonus per pair of consecutive units standing close together in the same field. */
export const PROXIMITY_BONUS = 2;


/**
 * Each matching document's score for the group, and the set. A unit is scored as one term
 * (BM25, field-weighted) whose rarity is that of the whole group, however it is found, as
 * Lucene scores synonyms: the alternatives then differ only by their weight, so an exact
 * match always outranks a corrected or completed one in the same place.
 */
export function evaluate(ix: SearchIndexData, group: Group): Evaluation {
  const n = ix.size;
  const best = new Float32Array(n);
  const set = new Bitset(n);
  const sum = new Float32Array(n);
  const together = new Bitset(n);
  const strong = new Bitset(n);
  const typos = new Uint8Array(n).fill(255);
  let exact = false;
  if (touchedScratch.length < n) touchedScratch = new Int32Array(n);
  const touched = touchedScratch;
  for (const alternative of group.alternatives) {
    let touchedCount = 0;
    // A correction or a completion leads to words of the name, description and keywords
    // only: the long description is searched for the words as typed (and their synonyms).
    const fields = alternative.typos || alternative.completion || alternative.strongOnly ? STRONG_FIELDS : ix.fields.length;
    for (let field = alternative.longOnly ? LONG : alternative.notName ? NAME + 1 : 0; field < fields; field++) {
      // BM25 of a term's frequency in the field, times the field's boost (idf aside):
      // boost·tf / (tf + normBase + normScale·length), its constants read once per field, as
      // the loop below runs over every posting of a common word (tens of thousands at 100,000 tools).
      const f = ix.fields[field]!;
      const { postingDocs, postingFrequencies, lengths } = f;
      const boost = FIELD_BOOST[field]! * (K1 + 1);
      const normBase = K1 * (1 - B[field]!);
      const normScale = (K1 * B[field]!) / f.averageLength;
      const strongField = field < STRONG_FIELDS;
      if (alternative.terms.length === 1) {
        const t = alternative.terms[0]!;
        for (let k = f.postingOffsets[t]!, end = f.postingOffsets[t + 1]!; k < end; k++) {
          const doc = postingDocs[k]!;
          const tf = postingFrequencies[k]!;
          if (sum[doc] === 0) touched[touchedCount++] = doc;
          sum[doc]! += (boost * tf) / (tf + normBase + normScale * lengths[doc]!);
          if (strongField) strong.add(doc);
        }
      } else {
        for (const doc of phraseDocs(ix, alternative.terms, field)) {
          if (sum[doc] === 0) touched[touchedCount++] = doc;
          sum[doc]! += boost / (1 + normBase + normScale * lengths[doc]!);
          if (strongField) strong.add(doc);
          // The query's own words, standing together as typed.
          if (alternative === group.literal && field !== LONG) together.add(doc);
        }
      }
    }
    const weight = alternative.weight;
    const alternativeTypos = alternative.typos ?? 0;
    if (alternativeTypos === 0 && !alternative.completion && touchedCount > 0) exact = true;
    for (let k = 0; k < touchedCount; k++) {
      const doc = touched[k]!;
      const s = sum[doc]! * weight;
      if (s > best[doc]!) best[doc] = s;
      if (alternativeTypos < typos[doc]!) typos[doc] = alternativeTypos;
      set.add(doc);
      sum[doc] = 0;
    }
  }
  const parts = group.parts?.map((p) => evaluate(ix, p)) ?? [];
  const apart = parts.length > 0 ? parts.map((p) => p.set).reduce((a, b) => a.and(b)) : null;
  if (apart !== null) {
    set.addSet(apart);
    strong.addSet(parts.map((p) => p.strong).reduce((a, b) => a.and(b)));
    if (parts.every((p) => p.exact) && !apart.isEmpty()) exact = true;
  }
  const idf = inverseDocumentFrequency(n, set.count());
  // The best weighted frequency becomes the score, in place.
  const score = best;
  set.forEach((doc) => {
    let s = best[doc]! * idf;
    if (together.has(doc)) s += PROXIMITY_BONUS;
    if (apart?.has(doc)) {
      let sumParts = 0;
      let partTypos = 0;
      for (const p of parts) {
        sumParts += p.score[doc]!;
        partTypos += p.typos[doc]!;
      }
      if (sumParts > s) s = sumParts;
      if (partTypos < typos[doc]!) typos[doc] = partTypos;
    }
    score[doc] = s;
  });
  return { score, set, typos, strong, exact };
}
/** Documents where the terms stand together, in order, in `field` (ascending). */
export function phraseDocs(ix: SearchIndexData, terms: readonly number[], field: number): number[] {
  const f = ix.fields[field]!;
  const rarest = terms.reduce((a, b) => (f.count(b) < f.count(a) ? b : a));
  const out: number[] = [];
  for (let k = f.postingOffsets[rarest]!; k < f.postingOffsets[rarest + 1]!; k++) {
    const doc = f.postingDocs[k]!;
    if (terms.every((t) => t === rarest || f.holds(t, doc)) && (field === LONG || together(ix, doc, field, terms))) out.push(doc);
  }
  return out;
}
/** Whether the terms stand in order with at most two words between each (`nuages de mots`). */
export function together(ix: SearchIndexData, doc: number, field: number, terms: readonly number[]): boolean {
  const { tokens: flat, tokenOffsets } = ix.fields[field]!;
  let last = -1;
  for (const t of terms) {
    let found = -1;
    for (let k = tokenOffsets[doc]!; k < tokenOffsets[doc + 1]!; k += 3) {
      if (flat[k] === t && flat[k + 1]! > last && (last === -1 || flat[k + 1]! - last <= 3)) {
        found = flat[k + 1]!;
        break;
      }
    }
    if (found === -1) return false;
    last = found;
  }
  return true;
}
/**
 * The weakest weight with which the query holds each word of the name (stop words aside), or 0.
 * `weights[term]`: the query's weight for the term, 0 where it does not name it.
 */
export function wholeName(ix: SearchIndexData, doc: number, weights: Float32Array): number {
  const content = ix.nameContent[doc]!;
  if (content === 0) return 0;
  const { tokens: flat, tokenOffsets } = ix.fields[NAME];
  // Words past the last one that counts are never read: only that many slots are cleared.
  const words = 32 - Math.clz32(content);
  const best = bestPerWord.fill(0, 0, words);
  for (let k = tokenOffsets[doc]!; k < tokenOffsets[doc + 1]!; k += 3) {
    const w = weights[flat[k]!]!;
    if (w === 0) continue;
    for (let p = flat[k + 1]!; p < flat[k + 1]! + flat[k + 2]! && p < words; p++) if (w > best[p]!) best[p] = w;
  }
  let weakest = 1;
  for (let bits = content; bits !== 0; bits &= bits - 1) weakest = Math.min(weakest, best[31 - Math.clz32(bits & -bits)]!);
  return weakest;
}
/**
 * How many pairs of consecutive units stand close together in one field (1 within two
 * words, 0.5 within four). `groupsOf[term]` is the units (bits) the term stands for, 0 for
 * a term the query does not hold: an array over every term, read once per word of the text.
 */
export function proximity(ix: SearchIndexData, doc: number, groupsOf: Int32Array, units: number, scores: readonly Evaluation[]): number {
  if (units < 2) return 0;
  let found = 0;
  for (let g = 0; g < units; g++) if (scores[g]!.score[doc] !== 0) found |= 1 << g;
  // Only consecutive units make a pair: a tool holding none of them both has no text to read.
  if ((found & (found >>> 1)) === 0) return 0;
  let bonus = 0;
  for (let field = 0; field < 2; field++) {
    const { tokens: flat, tokenOffsets } = ix.fields[field]!;
    // The last position where each unit was seen, and each pair's smallest distance (a loop:
    // a query has a few units, and fill() is a call per tool and field).
    for (let g = 0; g < units; g++) {
      last[g] = -1;
      closest[g] = Infinity;
    }
    for (let k = tokenOffsets[doc]!; k < tokenOffsets[doc + 1]!; k += 3) {
      const mask = groupsOf[flat[k]!]! & found;
      if (mask === 0) continue;
      const position = flat[k + 1]!;
      for (let g = 0; g < units; g++) {
        if ((mask & (1 << g)) === 0) continue;
        if (g > 0 && last[g - 1]! >= 0) closest[g - 1] = Math.min(closest[g - 1]!, position - last[g - 1]!);
        if (g + 1 < units && last[g + 1]! >= 0) closest[g] = Math.min(closest[g]!, position - last[g + 1]!);
        last[g] = position;
      }
    }
    for (let g = 0; g + 1 < units; g++) bonus += closest[g]! <= 2 ? 1 : closest[g]! <= 4 ? 0.5 : 0;
  }
  return bonus;
}
/** Scratch for evaluate(): the documents one alternative touched (an evaluation's parts are evaluated after its alternatives). */
let touchedScratch = new Int32Array(0);
/** Scratch for proximity(): units of a query are at most 31 (one bit each). */
const last = new Float64Array(32);
const closest = new Float64Array(32);
/** Scratch for wholeName(): one slot per word of a name. */
const bestPerWord = new Float32Array(31);

/** BM25's inverse document frequency. */
function inverseDocumentFrequency(size: number, df: number): number {
  return Math.log(1 + (size - df + 0.5) / (df + 0.5));
}

/**
 * A tool that has the subject but does not name it scores as a good match in its keywords
 * would, less a little for each other subject it has: among tools that all have the subject,
 * those made for it come before those that serve five subjects.
 */
const SUBJECT_SCORE = 6;
const SUBJECT_SHARED = 0.5;
const SUBJECT_SHARED_MAX = 4;
/** A tool that both names the subject and has it. */
const SUBJECT_BONUS = 2;

/**
 * Adds to a unit's evaluation the tools that have one of its subjects. A tool that has the
 * subject and names it only in its long description counts as naming it where it matters;
 * one that has it and names it scores both, so one naming it in its description comes first,
 * then one naming it in its long description, then one that only has it.
 */
export function withSubjects(evaluation: Evaluation, sets: readonly Bitset[], subjectCounts: Uint8Array): void {
  // A tool with two of the subjects a word names (`fle`: français, langues vivantes) counts once.
  for (const set of sets.length > 1 ? [sets.reduce((a, b) => a.or(b))] : sets) {
    set.forEach((doc) => {
      const subjectScore = SUBJECT_SCORE - SUBJECT_SHARED * Math.min(SUBJECT_SHARED_MAX, Math.max(0, subjectCounts[doc]! - 1));
      if (evaluation.set.has(doc)) {
        if (evaluation.typos[doc] !== 0) return;
        // Naming it adds to having it: in the description more than in the long description.
        evaluation.score[doc]! += subjectScore + SUBJECT_BONUS;
        evaluation.strong.add(doc);
        return;
      }
      evaluation.set.add(doc);
      evaluation.strong.add(doc);
      evaluation.score[doc] = subjectScore;
      evaluation.typos[doc] = 0;
    });
  }
}

/** Whether one of the sets holds `doc` (a loop: this runs per matching tool). */
export function inAny(sets: readonly Bitset[], doc: number): boolean {
  for (let k = 0; k < sets.length; k++) if (sets[k]!.has(doc)) return true;
  return false;
}
