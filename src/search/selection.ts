/**
 * Which tools a query's units select (docs/search.md, "Which tools match"). Every unit found
 * somewhere is required; a unit found nowhere is dropped, but a query whose units are as
 * often found nowhere as somewhere (`recette de cuisine`, `jardinage bio`, `washing machine`)
 * selects nothing. When a few tools hold every unit, the closest others fill the first page:
 * those holding every rarer unit (the common ones, such as `élèves` or `classe`, aside), else
 * those missing one. When none holds them all, the query is relaxed: to the tools holding its
 * rarer units, else to those holding the most of its units.
 */
import { Bitset } from '../bitset.js';
import type { Evaluation } from './query-types.js';

/** Fewer tools than this holding every unit: the closest others fill the first page. */
const FILL = 10;
/** A unit found in more than one tool in ten, and in more than MIN_COMMON tools, is common. */
const COMMON_SHARE = 1 / 10;
const MIN_COMMON = 8;

export interface Selection {
  candidates: Bitset;
  /**
   * Per document, how much of the query's information it holds, on 0–31 (informationHeld),
   * for the ranking, which then ignores where a unit is found; null when every candidate
   * holds them all.
   */
  coverage: Float32Array | null;
}

/**
 * `required`: the evaluations of the units found somewhere; `unknown`: how many units are
 * found nowhere. A unit found only in long descriptions (`cuisine` in a metaphor, `auto` in
 * `auto-hébergement`) counts as found nowhere for that rule: it is no sign the query is
 * about what the directory holds.
 */
export function select(n: number, required: readonly Evaluation[], unknown: number): Selection | null {
  const weak = required.filter((e) => e.strong.isEmpty()).length;
  if (required.length === 0 || unknown + weak >= Math.max(1, required.length - weak)) return null;
  const all = required.map((e) => e.set).reduce((a, b) => a.and(b));
  const full = all.count();
  if (full >= FILL || (full > 0 && required.length < 2)) return { candidates: all, coverage: null };
  const coverage = new Uint8Array(n);
  for (const e of required) e.set.forEach((doc) => coverage[doc]!++);
  // The rarer units, when the query also has common ones (`élèves`, `outil`, `classe`): the
  // tools holding all of them are the closest others, whatever they say of the common ones.
  const common = (e: Evaluation) => e.set.count() > Math.max(MIN_COMMON, n * COMMON_SHARE);
  const rare = required.filter((e) => !common(e));
  const rank = informationHeld(n, required);
  const rareSet = rare.length > 0 && rare.length < required.length ? rare.map((e) => e.set).reduce((a, b) => a.and(b)) : null;
  if (full > 0) {
    // Of three units or more, a tool missing one is close too, even when it misses a rare one
    // (`tenir` in « noter les absences et tenir le cahier de textes »).
    const fill = rareSet === null ? atLeast(coverage, required.length - 1, n) : required.length >= 3 ? rareSet.or(atLeast(coverage, required.length - 1, n)) : rareSet;
    fill.addSet(all);
    return { candidates: fill, coverage: rank };
  }
  const rareFound = rareSet !== null && !rareSet.isEmpty();
  if (rareFound && required.length < 3) return { candidates: rareSet, coverage: rank };
  // Of two units, either — but only when each is found somewhere as typed: a word found only
  // through a correction (`ortografe`) is not enough to show what the other word finds.
  if (required.length === 2) {
    return required.every((e) => e.set.some((doc) => e.typos[doc] === 0)) ? { candidates: atLeast(coverage, 1, n), coverage: rank } : null;
  }
  // Of three or more, the tools holding the most of them (and, fewer than a page, one fewer,
  // but never a single word of the query): the score then ranks first the tools holding the
  // rarer, more informative words, and those whose category the query names.
  let most = 0;
  for (let doc = 0; doc < n; doc++) if (coverage[doc]! > most) most = coverage[doc]!;
  let candidates = atLeast(coverage, most, n);
  if (most > 2 && candidates.count() < FILL) candidates = atLeast(coverage, most - 1, n);
  if (rareFound) candidates.addSet(rareSet);
  return { candidates, coverage: rank };
}

function atLeast(coverage: Uint8Array, threshold: number, n: number): Bitset {
  const set = new Bitset(n);
  for (let doc = 0; doc < n; doc++) if (coverage[doc]! >= threshold) set.add(doc);
  return set;
}

/**
 * Per document, the share of the query's information it holds, on 0–31: each unit weighs its
 * inverse document frequency (`traduire` in a few tools tells more than `documents` in a
 * hundred or `français` in most), half as much when found only in the long description.
 */
function informationHeld(n: number, required: readonly Evaluation[]): Float32Array {
  const weights = required.map((e) => Math.log(1 + n / e.set.count()));
  const scale = 31 / weights.reduce((a, b) => a + b, 0);
  const held = new Float32Array(n);
  required.forEach((e, k) => {
    // Half for holding it, half for holding it where it matters (the strong set is inside the set).
    const half = (weights[k]! * scale) / 2;
    e.set.forEach((doc) => (held[doc]! += half));
    e.strong.forEach((doc) => (held[doc]! += half));
  });
  return held;
}

/**
 * A query that is one run of words the vocabulary knows (`annotate pdf`, `graphing
 * calculator`, `reading fluency`), held whole by fewer tools than a page: those tools first,
 * then the tools its words select as a query of those words would (the expression's words
 * `annotate` and `pdf` as `annoter un pdf` finds them), so an English expression is not
 * poorer than its French words typed apart. Null when its words select nothing either.
 */
export function selectWithinExpression(n: number, whole: Evaluation): Selection | null {
  const parts = whole.parts;
  if (parts === null || whole.set.count() >= FILL) return null;
  const found = parts.filter((p) => !p.set.isEmpty());
  const inner = found.length > 0 ? select(n, found, parts.length - found.length) : null;
  if (inner === null) return null;
  const coverage = inner.coverage ?? new Float32Array(n);
  // The tools holding the whole expression come first; found only in a long description, half as much.
  whole.set.forEach((doc) => (coverage[doc] = Math.max(coverage[doc]!, 31 / 2)));
  whole.strong.forEach((doc) => (coverage[doc] = 31));
  return { candidates: inner.candidates.or(whole.set), coverage };
}
