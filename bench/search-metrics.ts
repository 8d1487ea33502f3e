/**
 * The shared scorer's metrics (../shared/search/eval.mjs) for one judged query, computed in
 * process by the search benchmarks (search-engines.ts, search-needs.ts).
 */

/** Grades: 3 exactly what the user wants, 2 clearly relevant, 1 marginally relevant. */
export type Judgments = Record<string, number>;

export interface QueryScore {
  /** nDCG@10, graded. */
  ndcg: number;
  /** Share of the relevant tools (at most 10) in the first ten. */
  r10: number;
  /** Reciprocal rank of the first tool graded 2 or more (0 when none comes). */
  rr: number;
  zero: boolean;
  /** Tools graded 2 or more missing from the first ten (at most four). */
  missing: string[];
}

const dcg = (grades: number[]) => grades.reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);

/** `got`: the slugs found, best first; `relevant` must judge at least one tool. */
export function scoreQuery(got: readonly string[], relevant: Judgments): QueryScore {
  const judged = Object.keys(relevant);
  const top = got.slice(0, 10);
  const ideal = Object.values(relevant).sort((a, b) => b - a).slice(0, 10);
  const first = got.findIndex((s) => (relevant[s] ?? 0) >= 2);
  return {
    ndcg: dcg(top.map((s) => relevant[s] ?? 0)) / dcg(ideal),
    r10: top.filter((s) => relevant[s]).length / Math.min(10, judged.length),
    rr: first < 0 ? 0 : 1 / (first + 1),
    zero: got.length === 0,
    missing: judged.filter((s) => relevant[s]! >= 2 && !top.includes(s)).slice(0, 4),
  };
}
