/** The tools the work of an exam named in a query selects (docs/search.md, exams). */
import { Bitset } from '../bitset.js';
import { isStopWord, tokenize } from './analyzer.js';
import { group, units as unitsOf } from './candidates.js';
import type { SearchIndexData } from './index-data.js';
import { evaluate } from './scoring.js';

/**
 * The tools whose name, description or keywords hold one of an exam's expressions (`révision`,
 * « fiches de révision », `FLE`), each read as a query's words are (stems, synonyms; no typing
 * errors, no completion). With `anywhere`, the tools that hold one anywhere in their file: given
 * an exam's own names, those that say what they prepare for (`DELF` in TV5MONDE's description).
 */
export function examSetOf(ix: SearchIndexData, finds: readonly string[], anywhere = false): Bitset {
  const set = new Bitset(ix.size);
  for (const expression of finds) {
    const content = tokenize(expression).map((t) => t.word).filter((w) => !isStopWord(w));
    if (content.length === 0) continue;
    const found = unitsOf(ix, content, false).map((u) => {
      const g = group(ix, u, true, false);
      const e = evaluate(ix, { ...g, alternatives: g.alternatives.filter((a) => !a.typos), parts: null });
      return anywhere ? e.set : e.strong;
    });
    set.addSet(found.reduce((a, b) => a.and(b)));
  }
  return set;
}

