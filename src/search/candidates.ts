/**
 * Candidate generation (docs/search.md): a query's words cut into units (a word, or a run of
 * words the synonyms know as one expression), and each unit's group of alternatives that
 * count as the unit being present — its own term, the words within one or two typing errors,
 * completions of the last word, the expressions its synonyms and word family find — each
 * with a weight, so an exact match always outranks a corrected one.
 */
import { infinitiveTerm, isStopWord, soundKey, termOf } from './analyzer.js';
import type { FuzzyMatch } from './vocabulary.js';
import { KEYWORDS, type SearchIndexData } from './index-data.js';
import type { Alternative, Group, Unit } from './query-types.js';
import { FAMILY_WEIGHT } from './synonyms.js';

/** Weights of the alternatives other than the unit itself and its synonyms (synonyms.ts). */
export const JOINED_WEIGHT = 0.95;
const TYPO_WEIGHT = [1, 0.6, 0.45];
const COMPLETION_WEIGHT = 0.85;
/** A completion is worth more the more of the word was typed: `mindm` of `mindmeister`. */
const completionWeight = (typed: number, whole: number) => COMPLETION_WEIGHT * Math.sqrt(typed / whole);
/** Past this many completions of the last word, only the most frequent are kept. */
const MAX_COMPLETIONS = 64;

/**
 * Query words grouped into units: the longest runs the synonyms know as one expression, and
 * the runs `forced` names (first word → word count: a subject's name of several words).
 */
export function units(ix: SearchIndexData, content: readonly string[], onlyStopWords: boolean, forced: ReadonlyMap<number, number> = new Map()): Unit[] {
  const units: Unit[] = [];
  const terms = content.map((word) => ix.termMemo.get(word, () => termOf(word)));
  for (let i = 0; i < content.length; ) {
    let length = forced.get(i) ?? 1;
    if (!onlyStopWords && length === 1) {
      for (let l = Math.min(ix.synonyms.longestKey, content.length - i); l >= 2; l--) {
        if (ix.synonyms.has(terms.slice(i, i + l))) {
          length = l;
          break;
        }
      }
    }
    units.push({ words: content.slice(i, i + length), terms: terms.slice(i, i + length) });
    i += length;
  }
  return units;
}
/**
 * The alternatives of a unit. A run of words the synonyms know is found as that expression
 * (its words together), as the expressions it is a synonym of, or as its words anywhere
 * in the tool, each found the way a single word is (`parts`).
 */
export function group(ix: SearchIndexData, unit: Unit, expand: boolean, complete: boolean): Group {
  const alternatives: Alternative[] = [];
  const ids = unit.terms.map((t) => ix.termIds.get(t));
  const literal: Alternative | null = ids.every((id) => id !== undefined)
    ? { terms: ids as number[], weight: 1, ...(expand ? {} : { strongOnly: true as const }), ...(expand && ids.length === 1 && strangerTo(ix, unit.words[0]!, ids[0]!) ? { longOnly: true as const } : {}) }
    : null;
  if (literal) alternatives.push(literal);
  if (!expand) return { alternatives, literal, parts: null };

  for (const alternative of synonymsOf(ix, unit, literal === null)) {
    const termIds = alternative.terms.map((t) => ix.termIds.get(t));
    if (termIds.every((id) => id !== undefined)) alternatives.push({ terms: termIds as number[], weight: alternative.weight });
  }
  if (unit.words.length > 1) {
    const last = unit.words.length - 1;
    const parts = unit.words.map((word, k) => group(ix, { words: [word], terms: [unit.terms[k]!] }, true, complete && k === last));
    // An expression the vocabulary translates is asked for as a whole: a tool its words name
    // (`written by ChatGPT`, « écrit par ChatGPT ») is not what it asks for.
    if (alternatives.length > (literal === null ? 0 : 1)) {
      parts.forEach((part, k) => {
        if (ix.wholeNames.has(unit.words[k]!)) part.alternatives = part.alternatives.map((a) => ({ ...a, notName: true }));
      });
    }
    return { alternatives, literal, parts };
  }
  const word = unit.words[0]!;
  const infinitive = infinitiveTerm(word, unit.terms[0]);
  const infinitiveId = infinitive === null ? undefined : ix.termIds.get(infinitive);
  if (infinitiveId !== undefined) alternatives.push({ terms: [infinitiveId], weight: FAMILY_WEIGHT });
  // A word the stemmer knows through other words (`numération`) is a word of the language, not a typing error.
  if (word.length >= 4 && !unit.compound && !literal?.longOnly) {
    for (const match of corrections(ix, word)) {
      if (match.distance === 0 || isStopWord(ix.vocabulary.words[match.index]!)) continue;
      alternatives.push({ terms: [ix.surfaceTerm[match.index]!], weight: TYPO_WEIGHT[match.distance]!, typos: match.distance });
    }
    // A tool's name typed as it sounds (`phyfox` for « Phyphox »): one typing error.
    if (word.length >= 5 && literal === null) {
      for (const v of ix.nameSounds.get(soundKey(word)) ?? []) {
        const term = ix.surfaceTerm[v]!;
        if (!alternatives.some((a) => a.terms.length === 1 && a.terms[0] === term)) alternatives.push({ terms: [term], weight: TYPO_WEIGHT[1]!, typos: 1 });
      }
    }
  }
  if (complete && word.length >= 2) {
    const [from, to] = ix.vocabulary.prefixRange(word);
    let completions: number[] = [];
    for (let v = from; v < to; v++) if (ix.vocabulary.words[v] !== word) completions.push(v);
    if (completions.length > MAX_COMPLETIONS) {
      const df = (v: number) => ix.documentFrequency[ix.surfaceTerm[v]!]!;
      completions = completions.sort((a, b) => df(b) - df(a)).slice(0, MAX_COMPLETIONS);
    }
    for (const v of completions) {
      alternatives.push({ terms: [ix.surfaceTerm[v]!], weight: completionWeight(word.length, ix.vocabulary.words[v]!.length), completion: true });
    }
  }
  return { alternatives, literal, parts: null };
}
/**
 * Whether the stemmer joins a word, typed as no name, description or keyword writes it, only
 * to words of them it shares little with beyond the stem (`numération` → « numer »:
 * « numérique »): not an inflection of theirs (`révisent`, « réviser »; `interactives`,
 * « interactif »: they share all but their last three letters). Such a word is then looked
 * for in long descriptions only, where it may stand as typed.
 */
function strangerTo(ix: SearchIndexData, word: string, term: number): boolean {
  if (ix.vocabulary.indexOf(word) !== -1) return false;
  const from = ix.surfaceOffsets[term]!;
  const to = ix.surfaceOffsets[term + 1]!;
  if (from === to) return false;
  for (let k = from; k < to; k++) {
    const other = ix.vocabulary.words[ix.surfacesOfTerm[k]!]!;
    let shared = 0;
    while (shared < word.length && word[shared] === other[shared]) shared++;
    if (shared >= Math.min(word.length, other.length) - 3) return false;
  }
  return true;
}

/**
 * What a unit's synonyms and translations find. A single word the directory does not hold
 * (`unknown`) and no entry names is looked for as another English inflection of a translated
 * word (SynonymTable.inflection): `count` finds what `counting` does, `quizzes` what `quiz`
 * does. A word the directory holds is a French word first (`plans`, `notes`), and keeps its
 * own entries only.
 */
function synonymsOf(ix: SearchIndexData, unit: Unit, unknown: boolean) {
  const own = ix.synonyms.alternatives(unit.terms);
  return own.length > 0 || !unknown || unit.words.length !== 1 ? own : ix.synonyms.inflection(unit.words[0]!);
}

/** The words within reach of typing errors of `word`. */
export function corrections(ix: SearchIndexData, word: string): readonly FuzzyMatch[] {
  return ix.typoMemo.get(word, () => ix.vocabulary.fuzzy(word, word.length >= 8 ? 2 : 1));
}
/**
 * Per category, the best weight with which a unit's alternatives name a word of the
 * category's name (a single word, not a completion), or 0.
 */
export function categoryWeights(ix: SearchIndexData, alternatives: readonly Alternative[]): Float64Array {
  const best = new Float64Array(ix.categoryTerms.length);
  for (const a of alternatives) {
    if (a.terms.length !== 1 || a.completion) continue;
    const categories = ix.categoriesOfTerm.get(a.terms[0]!);
    if (categories !== undefined) for (const c of categories) if (a.weight > best[c]!) best[c] = a.weight;
  }
  return best;
}
/** Whether a group finds words of the tools' keywords (their tags, their category's name) as typed or through a synonym. */
export function namesKeyword(ix: SearchIndexData, g: Group): boolean {
  const keywords = ix.fields[KEYWORDS];
  return g.alternatives.some((a) => !a.typos && !a.completion && a.terms.every((t) => keywords.count(t) > 0)) || (g.parts?.every((p) => namesKeyword(ix, p)) ?? false);
}

/** A group's alternatives and those of its parts. */
export function allAlternatives(group: Group): Alternative[] {
  return group.parts === null ? group.alternatives : [...group.alternatives, ...group.parts.flatMap(allAlternatives)];
}

/**
 * Term → the best weight with which the query names it as a word: single-word alternatives,
 * not completions of a word still being typed, nor one word of a longer expression, nor a
 * tool's name inside an expression the vocabulary translates (`written by ChatGPT`).
 */
export function matchedTermWeights(alternatives: ReadonlyArray<readonly Alternative[]>): Map<number, number> {
  const weights = new Map<number, number>();
  for (const list of alternatives) {
    for (const a of list) if (a.terms.length === 1 && !a.completion && !a.notName) weights.set(a.terms[0]!, Math.max(weights.get(a.terms[0]!) ?? 0, a.weight));
  }
  return weights;
}

/** Term → the units (one bit each, at most 31) whose alternatives hold it. */
export function unitsOfTerms(alternatives: ReadonlyArray<readonly Alternative[]>): Map<number, number> {
  const units = new Map<number, number>();
  alternatives.forEach((list, g) => {
    if (g >= 31) return;
    for (const a of list) for (const t of a.terms) units.set(t, (units.get(t) ?? 0) | (1 << g));
  });
  return units;
}

/** Per unit, the alternatives of two one-word units typed apart that the text writes as one: `chat gpt` → `chatgpt`. */
export function joinedAlternativesOf(ix: SearchIndexData, units: readonly Unit[]): Alternative[][] {
  const joined: Alternative[][] = units.map(() => []);
  for (let k = 0; k + 1 < units.length; k++) {
    if (units[k]!.words.length !== 1 || units[k + 1]!.words.length !== 1) continue;
    const index = ix.vocabulary.indexOf(units[k]!.words[0]! + units[k + 1]!.words[0]!);
    if (index === -1) continue;
    const alternative = { terms: [ix.surfaceTerm[index]!], weight: JOINED_WEIGHT };
    joined[k]!.push(alternative);
    joined[k + 1]!.push(alternative);
  }
  return joined;
}
