/**
 * The search behind `q` (docs/search.md): over each tool's name and short description, built
 * once per data revision, then only read.
 *
 * A query is cut into units: a word, or a run of words the synonyms know as one expression
 * (`nuage de mots`, `speech to text`). Each unit becomes a group of alternatives that count as
 * the unit being present: its own term (exact, or through inflection: the analyzer stems),
 * the words within one typing error (4+ letters) or two (8+), completions of the last word
 * (search as you type), two query words typed apart that the text writes as one (`chat gpt`),
 * and the expressions its synonyms and word family find. Each alternative has a weight: 1 for
 * the word itself, less for a family member, a synonym, a completion or a correction, so an
 * exact match always outranks a corrected one.
 *
 * Which tools match: those that hold every unit; except that a unit found in more than one
 * tool in eight (`ia`, `outil`, `apprendre`), when the query also has rarer ones, only adds to
 * the score (as Lucene's common-terms query does): `apprendre l'anglais` finds the English
 * courses that do not say `apprendre`, ranked after those that do. If no tool holds every
 * required unit of a query of three or more, the tools that hold most of them are returned,
 * ranked by how many; with one or two, nothing is: that is how a query with no plausible match
 * (`jardinage bio`) stays empty.
 *
 * Order: the exact name, then names that start with the query, then a field-weighted score
 * (BM25 per field, the name weighing three times the description, each unit scored through its
 * best alternative), plus how much of the name the query covers and how close together the
 * units stand in the text; ties in name order (French collation).
 */
import { Bitset } from '../read-model/bitset.js';
import { isStopWord, isStopWordAt, nameTokens, termOf, tokenize, type Token } from './analyzer.js';
import type { SynonymSet } from '../domain.js';
import { SynonymTable } from './synonyms.js';
import { Memo } from '../memo.js';
import { runAtOnce, type Steps } from '../slices.js';
import { FieldBuilder, type FieldIndex } from './field-index.js';
import { Vocabulary, type FuzzyMatch } from './vocabulary.js';

export interface SearchDocument {
  name: string;
  description: string;
  /** The name of the tool's category: not searched, but a unit it names ranks the tool higher. */
  category?: string;
}

export interface SearchResult {
  /** The matching documents, best first. */
  readonly ranked: Int32Array;
  /** The same documents, as a set. */
  readonly set: Bitset;
}

const NAME = 0;
const DESCRIPTION = 1;
const FIELD_BOOST = [3, 1];
const K1 = 1.2;
const B = [0.5, 0.75];

/** Weights of the alternatives other than the unit itself and its synonyms (synonyms.ts). */
const JOINED_WEIGHT = 0.95;
const TYPO_WEIGHT = [1, 0.6, 0.45];
const COMPLETION_WEIGHT = 0.85;
/** A completion is worth more the more of the word was typed: `mindm` of `mindmeister`. */
const completionWeight = (typed: number, whole: number) => COMPLETION_WEIGHT * Math.sqrt(typed / whole);
/** Past this many completions of the last word, only the most frequent are kept. */
const MAX_COMPLETIONS = 64;
/** A unit found in more than one tool in ten, and in more than MIN_COMMON tools, is "common". */
const COMMON_SHARE = 1 / 10;
const MIN_COMMON = 8;
/**
 * Bonus when the query holds the whole name (`canvaa` for Canva, not for Canvas LMS), times
 * the weakest match among its words; in score units (a rare word in the name scores about 13).
 */
const WHOLE_NAME_BONUS = 8;

/**
 * Bonus per unit that the tool's category names (`correction` for a tool of « Évaluation et
 * correction »): among tools that all mention a word, those whose very purpose it is first.
 */
const CATEGORY_BONUS = 3;

/** Bonus per pair of consecutive units standing close together in the same field. */
const PROXIMITY_BONUS = 2;
/** Fewer tools than this holding every unit: the closest others fill the first page. */
const FILL = 10;
const MEMO_LIMIT = 2_000;
/**
 * What the per-unit memo may hold, in bytes of per-document arrays: a unit's evaluation takes
 * about six bytes per tool, so the bundled directory keeps about 2,500 units, 20,000 tools 135.
 */
const UNIT_MEMO_BYTES = 16 * 2 ** 20;
/** Fewer units than this would fit in UNIT_MEMO_BYTES: no per-unit memo. */
const MIN_UNIT_MEMO = 64;

const enum Tier {
  Other = 0,
  NamePrefix = 1,
  ExactName = 2,
}

interface Alternative {
  terms: readonly number[];
  weight: number;
  /** A completion of the last word as typed so far: it does not count as naming a word. */
  completion?: true;
  /** Typing errors corrected to find it. */
  typos?: number;
}

/** A unit met before: its alternatives, how the documents match them, its category weights. */
interface KnownUnit {
  group: Group;
  evaluation: Evaluation;
  categoryWeights: Float64Array;
}

interface Unit {
  words: readonly string[];
  terms: readonly string[];
}

interface Group {
  alternatives: Alternative[];
  /** The unit's own terms (weight 1), when the index has them all. */
  literal: Alternative | null;
  /** For a run of words: each word as a group of its own, all of which must be found. */
  parts: Group[] | null;
}

/** How each document matches a group: its score, whether at all, and with how many typos. */
interface Evaluation {
  score: Float32Array;
  set: Bitset;
  /** Typing errors corrected to find the group in the document (255 where it is not found). */
  typos: Uint8Array;
}


export class SearchIndex {
  private readonly memo = new Memo<string, SearchResult>(MEMO_LIMIT);
  /** The words within reach of typing errors of a word (queries share their words). */
  private readonly typoMemo = new Memo<string, readonly FuzzyMatch[]>(MEMO_LIMIT * 4);
  /** The term of a query word (Snowball's stemmer is a good part of a short query's cost). */
  private readonly termMemo = new Memo<string, string>(MEMO_LIMIT * 4);
  /**
   * Each unit's alternatives and how the documents match them, kept per unit as typed (with
   * whether it is expanded and completed): a query never seen is mostly made of words seen
   * before (`gratuit`, `élèves`), and building and evaluating a unit is most of a search.
   */
  private readonly unitMemo: Memo<string, KnownUnit>;
  /** Term → the categories whose name holds it. */
  private readonly categoriesOfTerm = new Map<number, number[]>();

  private constructor(
    readonly size: number,
    private readonly vocabulary: Vocabulary,
    /** Vocabulary index → term id. */
    private readonly surfaceTerm: Int32Array,
    private readonly termIds: ReadonlyMap<string, number>,
    /** The name and the short description. */
    private readonly fields: readonly [FieldIndex, FieldIndex],
    /** Documents holding the term in either field. */
    private readonly documentFrequency: Int32Array,
    /** Per document: the folded name, and bit p set when the name's word p is not a stop word. */
    private readonly names: readonly string[],
    /** The same without spaces (`chat gpt` and `chatgpt` name one tool). */
    private readonly compactNames: readonly string[],
    private readonly nameContent: Int32Array,
    /** Per document, its category (an index into `categoryTerms`). */
    private readonly categoryOf: Int32Array,
    /** Per category, the terms of its name. */
    private readonly categoryTerms: ReadonlyArray<ReadonlySet<number>>,
    private readonly synonyms: SynonymTable,
  ) {
    for (const [c, terms] of categoryTerms.entries()) {
      for (const t of terms) this.categoriesOfTerm.set(t, [...(this.categoriesOfTerm.get(t) ?? []), c]);
    }
    // Past a few tens of thousands of tools, few units would fit, and keeping large arrays
    // alive past a query costs the garbage collector more than evaluating them again
    // (measured at 100,000 tools: twice the time per never-seen query): no memo there.
    const fits = Math.floor(UNIT_MEMO_BYTES / (size * 6 + 4_096));
    this.unitMemo = new Memo(fits < MIN_UNIT_MEMO ? 0 : Math.min(8_192, fits));
  }

  /** Builds the index at once (tests, tools); the server drives `build` in slices. */
  static of(documents: readonly SearchDocument[], synonyms: SynonymSet): SearchIndex {
    return runAtOnce(SearchIndex.build(documents, synonyms));
  }

  /**
   * Builds the index, pausing (`yield`) every few hundred documents and between phases, so
   * that a server building the next revision's index keeps answering requests meanwhile
   * (read-model.ts).
   */
  static *build(documents: readonly SearchDocument[], synonymSet: SynonymSet): Steps<SearchIndex> {
    const n = documents.length;
    const termIds = new Map<string, number>();
    const surfaces = new Map<string, number>();
    const termOfWord = (word: string): number => {
      let id = surfaces.get(word);
      if (id === undefined) {
        const term = termOf(word);
        id = termIds.get(term);
        if (id === undefined) termIds.set(term, (id = termIds.size));
        surfaces.set(word, id);
      }
      return id;
    };
    const builders = [new FieldBuilder(), new FieldBuilder()] as const;
    const add = (field: number, tokens: Token[], words: number) =>
      builders[field]!.add(tokens.map((t) => termOfWord(t.word)), tokens.map((t) => t.position), tokens.map((t) => t.span), words);
    const names: string[] = new Array(n);
    const nameContent = new Int32Array(n);
    for (let doc = 0; doc < n; doc++) {
      const d = documents[doc]!;
      const words = tokenize(d.name);
      names[doc] = words.map((w) => w.word).join(' ');
      for (const w of words) if (w.position < 31 && !isStopWord(w.word)) nameContent[doc]! |= 1 << w.position;
      add(NAME, nameTokens(d.name), words.length);
      const description = tokenize(d.description);
      add(DESCRIPTION, description, description.length);
      if (doc % 500 === 499) yield;
    }
    yield;
    const vocabulary = yield* Vocabulary.build(surfaces.keys());
    const surfaceTerm = Int32Array.from(vocabulary.words, (w) => surfaces.get(w)!);
    yield;
    const terms = termIds.size;
    const name = yield* builders[NAME].finish(terms);
    const description = yield* builders[DESCRIPTION].finish(terms);
    yield;
    // Documents holding the term in either field: the size of the union of its two lists.
    const df = new Int32Array(terms);
    for (let t = 0; t < terms; t++) {
      let i = name.postingOffsets[t]!;
      let j = description.postingOffsets[t]!;
      const iEnd = name.postingOffsets[t + 1]!;
      const jEnd = description.postingOffsets[t + 1]!;
      let count = 0;
      while (i < iEnd || j < jEnd) {
        const a = i < iEnd ? name.postingDocs[i]! : Infinity;
        const b = j < jEnd ? description.postingDocs[j]! : Infinity;
        if (a <= b) i++;
        if (b <= a) j++;
        count++;
      }
      df[t] = count;
      if (t % 20_000 === 19_999) yield;
    }
    const categoryNames = [...new Set(documents.map((d) => d.category ?? ''))];
    const categoryOf = Int32Array.from(documents, (d) => categoryNames.indexOf(d.category ?? ''));
    const categoryTerms = categoryNames.map((c) => new Set(tokenize(c).flatMap((t) => (isStopWord(t.word) ? [] : [termIds.get(termOf(t.word)) ?? -1]))));
    return new SearchIndex(n, vocabulary, surfaceTerm, termIds, [name, description], df, names, names.map((s) => s.replaceAll(' ', '')), nameContent, categoryOf, categoryTerms, new SynonymTable(synonymSet));
  }

  /** The tools matching `q`, best first. Results are kept per distinct query. */
  search(q: string): SearchResult {
    return this.memo.get(q, () => this.run(q));
  }

  private run(q: string): SearchResult {
    const n = this.size;
    const words = tokenize(q).map((t) => t.word);
    if (words.length === 0 || n === 0) return { ranked: new Int32Array(0), set: new Bitset(n) };
    let content = words.filter((_, i) => !isStopWordAt(words, i));
    const onlyStopWords = content.length === 0;
    if (onlyStopWords) content = words;

    // Search as you type completes the last word, unless it is a stop word, the query has
    // nothing else, or it was typed as an acronym (`ENT`, `TBI`): those are whole words.
    const lastTyped = q.trim().split(/\s+/).pop() ?? '';
    const acronym = /^[\p{Lu}\d]{2,}$/u.test(lastTyped.replace(/[^\p{L}\p{N}]/gu, '')) && /\p{Lu}.*\p{Lu}/u.test(lastTyped);
    const completeLast = !onlyStopWords && !acronym && !isStopWordAt(words, words.length - 1);

    const units = this.units(content, onlyStopWords);
    const known = units.map((unit, k) => this.unit(unit, !onlyStopWords, completeLast && k === units.length - 1));
    // Two words typed apart that the text writes as one: `chat gpt` → `chatgpt`.
    const joinedAlternatives: Alternative[][] = units.map(() => []);
    for (let k = 0; k + 1 < units.length; k++) {
      if (units[k]!.words.length !== 1 || units[k + 1]!.words.length !== 1) continue;
      const joined = this.vocabulary.indexOf(units[k]!.words[0]! + units[k + 1]!.words[0]!);
      if (joined === -1) continue;
      const alternative = { terms: [this.surfaceTerm[joined]!], weight: JOINED_WEIGHT };
      joinedAlternatives[k]!.push(alternative);
      joinedAlternatives[k + 1]!.push(alternative);
    }
    // A unit that gains such an alternative is evaluated anew (the memo's entry stays as is).
    const effective = known.map((u, k) =>
      joinedAlternatives[k]!.length === 0 ? u : this.know({ ...u.group, alternatives: [...u.group.alternatives, ...joinedAlternatives[k]!] }),
    );
    const groups = effective.map((u) => u.group);
    const scores = effective.map((u) => u.evaluation);
    const common = groups.map((g) => this.isCommon(g));
    const required = common.every(Boolean) ? groups.map(() => true) : common.map((c) => !c);
    const requiredSets = scores.filter((_, k) => required[k]).map((s) => s.set);

    let candidates = requiredSets.reduce((a, b) => a.and(b));
    let coverage: Uint8Array | null = null;
    const full = candidates.count();
    const wanted = requiredSets.length;
    const threshold = full > 0 ? (full < FILL ? wanted - 1 : 0) : this.fallbackThreshold(scores.filter((_, k) => required[k]));
    if (threshold > 0) {
      coverage = new Uint8Array(n);
      for (const set of requiredSets) set.forEach((doc) => coverage![doc]!++);
      candidates = new Bitset(n);
      for (let doc = 0; doc < n; doc++) if (coverage[doc]! >= threshold) candidates.add(doc);
    }

    const members = candidates.slice(0, n);
    const flat = groups.map((g) => allAlternatives(g));
    const weights = matchedTermWeights(flat);
    const groupsOf = unitsOfTerms(flat);
    const qFolded = words.join(' ');
    const qCompact = words.join('');
    // As Meilisearch's default rules: the name tiers, how many units are found, then fewer
    // typing errors, then the score; ties in name order. Each tool's place is packed into one
    // number and the numbers sorted natively: with thousands of matches, a comparator over
    // objects cost more than finding them.
    const byCategory = new Float64Array(this.categoryTerms.length);
    for (const { categoryWeights } of effective) {
      for (let c = 0; c < categoryWeights.length; c++) byCategory[c]! += categoryWeights[c]!;
    }
    for (let c = 0; c < byCategory.length; c++) byCategory[c]! *= CATEGORY_BONUS;
    const order = new RankOrder(members.length, n);
    for (const doc of members) {
      let score = 0;
      let typos = 0;
      for (const s of scores) {
        score += s.score[doc]!;
        if (s.set.has(doc)) typos += s.typos[doc]!;
      }
      score += this.wholeName(doc, weights) * WHOLE_NAME_BONUS + byCategory[this.categoryOf[doc]!]!;
      score += this.proximity(doc, groupsOf, Math.min(groups.length, 31), scores) * PROXIMITY_BONUS;
      const compact = this.compactNames[doc]!;
      // Both tiers need the name to start as the query does: one character compared first.
      const tier =
        compact.charCodeAt(0) !== qCompact.charCodeAt(0) ? Tier.Other
          : this.names[doc] === qFolded || compact === qCompact ? Tier.ExactName
            : qCompact.length >= 2 && (this.names[doc]!.startsWith(qFolded) || compact.startsWith(qCompact)) ? Tier.NamePrefix
              : Tier.Other;
      order.add(doc, tier, coverage === null ? 0 : coverage[doc]!, typos, score);
    }
    return { ranked: order.ranked(), set: candidates };
  }

  /**
   * When no tool holds every required unit: how many of them a tool must hold to be shown
   * (0: none is). Of three units or more, most of them. Of two, either, but only when each
   * is found somewhere as typed: a word found nowhere (`jardinage` in `jardinage bio`) means
   * the query is about something the directory does not cover, and the other word alone
   * would be a false lead.
   */
  private fallbackThreshold(required: readonly Evaluation[]): number {
    if (required.length >= 3) return Math.floor(required.length / 2) + 1;
    if (required.length === 2 && required.every((e) => e.set.some((doc) => e.typos[doc] === 0))) return 1;
    return 0;
  }

  /** Query words grouped into units: the longest runs the synonyms know as one expression. */
  private units(content: readonly string[], onlyStopWords: boolean): Unit[] {
    const units: Unit[] = [];
    const terms = content.map((word) => this.termMemo.get(word, () => termOf(word)));
    for (let i = 0; i < content.length; ) {
      let length = 1;
      if (!onlyStopWords) {
        for (let l = Math.min(this.synonyms.longestKey, content.length - i); l >= 2; l--) {
          if (this.synonyms.has(terms.slice(i, i + l))) {
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

  /** A unit's group and its evaluation, from the memo when the unit was met before. */
  private unit(unit: Unit, expand: boolean, complete: boolean): KnownUnit {
    return this.unitMemo.get(`${expand ? 1 : 0}${complete ? 1 : 0}${unit.words.join(' ')}`, () => this.know(this.group(unit, expand, complete)));
  }

  /** How the documents match a group, and its category weights. */
  private know(group: Group): KnownUnit {
    return { group, evaluation: this.evaluate(group), categoryWeights: this.categoryWeights(allAlternatives(group)) };
  }

  /**
   * The alternatives of a unit. A run of words the synonyms know is found as that expression
   * (its words together), as the expressions it is a synonym of, or as its words anywhere
   * in the tool, each found the way a single word is (`parts`).
   */
  private group(unit: Unit, expand: boolean, complete: boolean): Group {
    const alternatives: Alternative[] = [];
    const ids = unit.terms.map((t) => this.termIds.get(t));
    const literal = ids.every((id) => id !== undefined) ? { terms: ids as number[], weight: 1 } : null;
    if (literal) alternatives.push(literal);
    if (!expand) return { alternatives, literal, parts: null };

    for (const alternative of this.synonyms.alternatives(unit.terms)) {
      const termIds = alternative.terms.map((t) => this.termIds.get(t));
      if (termIds.every((id) => id !== undefined)) alternatives.push({ terms: termIds as number[], weight: alternative.weight });
    }
    if (unit.words.length > 1) {
      const last = unit.words.length - 1;
      const parts = unit.words.map((word, k) => this.group({ words: [word], terms: [unit.terms[k]!] }, true, complete && k === last));
      return { alternatives, literal, parts };
    }
    const word = unit.words[0]!;
    if (word.length >= 4) {
      for (const match of this.corrections(word)) {
        if (match.distance === 0 || isStopWord(this.vocabulary.words[match.index]!)) continue;
        alternatives.push({ terms: [this.surfaceTerm[match.index]!], weight: TYPO_WEIGHT[match.distance]!, typos: match.distance });
      }
    }
    if (complete && word.length >= 2) {
      const [from, to] = this.vocabulary.prefixRange(word);
      let completions: number[] = [];
      for (let v = from; v < to; v++) if (this.vocabulary.words[v] !== word) completions.push(v);
      if (completions.length > MAX_COMPLETIONS) {
        const df = (v: number) => this.documentFrequency[this.surfaceTerm[v]!]!;
        completions = completions.sort((a, b) => df(b) - df(a)).slice(0, MAX_COMPLETIONS);
      }
      for (const v of completions) {
        alternatives.push({ terms: [this.surfaceTerm[v]!], weight: completionWeight(word.length, this.vocabulary.words[v]!.length), completion: true });
      }
    }
    return { alternatives, literal, parts: null };
  }

  /** The words within reach of typing errors of `word`. */
  private corrections(word: string): readonly FuzzyMatch[] {
    return this.typoMemo.get(word, () => this.vocabulary.fuzzy(word, word.length >= 8 ? 2 : 1));
  }

  /**
   * Per category, the best weight with which a unit's alternatives name a word of the
   * category's name (a single word, not a completion), or 0.
   */
  private categoryWeights(alternatives: readonly Alternative[]): Float64Array {
    const best = new Float64Array(this.categoryTerms.length);
    for (const a of alternatives) {
      if (a.terms.length !== 1 || a.completion) continue;
      const categories = this.categoriesOfTerm.get(a.terms[0]!);
      if (categories !== undefined) for (const c of categories) if (a.weight > best[c]!) best[c] = a.weight;
    }
    return best;
  }

  /** A unit found as itself in more than one tool in ten (a run of words: each of them). */
  private isCommon(group: Group): boolean {
    if (group.parts !== null) return group.parts.every((p) => this.isCommon(p));
    const df = group.literal === null ? 0 : this.documentFrequency[group.literal.terms[0]!]!;
    return df > MIN_COMMON && df > this.size * COMMON_SHARE;
  }

  /**
   * Each matching document's score for the group, and the set. A unit is scored as one term
   * (BM25, field-weighted) whose rarity is that of the whole group, however it is found, as
   * Lucene scores synonyms: the alternatives then differ only by their weight, so an exact
   * match always outranks a corrected or completed one in the same place.
   */
  private evaluate(group: Group): Evaluation {
    const n = this.size;
    const best = new Float32Array(n);
    const set = new Bitset(n);
    const sum = new Float32Array(n);
    const together = new Bitset(n);
    const typos = new Uint8Array(n).fill(255);
    for (const alternative of group.alternatives) {
      const touched: number[] = [];
      for (let field = 0; field < 2; field++) {
        if (alternative.terms.length === 1) {
          const f = this.fields[field]!;
          const t = alternative.terms[0]!;
          for (let k = f.postingOffsets[t]!; k < f.postingOffsets[t + 1]!; k++) {
            const doc = f.postingDocs[k]!;
            if (sum[doc] === 0) touched.push(doc);
            sum[doc]! += this.termFrequencyScore(field, doc, f.postingFrequencies[k]!);
          }
        } else {
          for (const doc of this.phraseDocs(alternative.terms, field)) {
            if (sum[doc] === 0) touched.push(doc);
            sum[doc]! += this.termFrequencyScore(field, doc, 1);
            // The query's own words, standing together as typed.
            if (alternative === group.literal) together.add(doc);
          }
        }
      }
      for (const doc of touched) {
        const s = sum[doc]! * alternative.weight;
        if (s > best[doc]!) best[doc] = s;
        if ((alternative.typos ?? 0) < typos[doc]!) typos[doc] = alternative.typos ?? 0;
        set.add(doc);
        sum[doc] = 0;
      }
    }
    const parts = group.parts?.map((p) => this.evaluate(p)) ?? [];
    const apart = parts.length > 0 ? parts.map((p) => p.set).reduce((a, b) => a.and(b)) : null;
    if (apart !== null) set.addSet(apart);
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
    return { score, set, typos };
  }

  /** The BM25 weight of a term's frequency in a field, times the field's boost (idf aside). */
  private termFrequencyScore(field: number, doc: number, tf: number): number {
    const f = this.fields[field]!;
    const norm = 1 - B[field]! + (B[field]! * f.lengths[doc]!) / f.averageLength;
    return FIELD_BOOST[field]! * ((tf * (K1 + 1)) / (tf + K1 * norm));
  }

  /** Documents where the terms stand together, in order, in `field` (ascending). */
  private phraseDocs(terms: readonly number[], field: number): number[] {
    const f = this.fields[field]!;
    const rarest = terms.reduce((a, b) => (f.count(b) < f.count(a) ? b : a));
    const out: number[] = [];
    for (let k = f.postingOffsets[rarest]!; k < f.postingOffsets[rarest + 1]!; k++) {
      const doc = f.postingDocs[k]!;
      if (terms.every((t) => t === rarest || f.holds(t, doc)) && this.together(doc, field, terms)) out.push(doc);
    }
    return out;
  }

  /** Whether the terms stand in order with at most two words between each (`nuages de mots`). */
  private together(doc: number, field: number, terms: readonly number[]): boolean {
    const { tokens: flat, tokenOffsets } = this.fields[field]!;
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

  /** The weakest weight with which the query holds each word of the name (stop words aside), or 0. */
  private wholeName(doc: number, weights: Map<number, number>): number {
    const content = this.nameContent[doc]!;
    if (content === 0) return 0;
    const { tokens: flat, tokenOffsets } = this.fields[NAME];
    const best = bestPerWord.fill(0);
    for (let k = tokenOffsets[doc]!; k < tokenOffsets[doc + 1]!; k += 3) {
      const w = weights.get(flat[k]!);
      if (w === undefined) continue;
      for (let p = flat[k + 1]!; p < flat[k + 1]! + flat[k + 2]! && p < 31; p++) if (w > best[p]!) best[p] = w;
    }
    let weakest = 1;
    for (let p = 0; p < 31; p++) if ((content & (1 << p)) !== 0) weakest = Math.min(weakest, best[p]!);
    return weakest;
  }

  /**
   * How many pairs of consecutive units stand close together in one field (1 within two
   * words, 0.5 within four). `groupsOf` maps a term to the units (bits) it stands for.
   */
  private proximity(doc: number, groupsOf: ReadonlyMap<number, number>, units: number, scores: readonly Evaluation[]): number {
    if (units < 2) return 0;
    let found = 0;
    let count = 0;
    for (let g = 0; g < units; g++) {
      if (scores[g]!.score[doc] !== 0) {
        found |= 1 << g;
        count++;
      }
    }
    if (count < 2) return 0;
    let bonus = 0;
    for (let field = 0; field < 2; field++) {
      const { tokens: flat, tokenOffsets } = this.fields[field]!;
      // The last position where each unit was seen, and each pair's smallest distance.
      last.fill(-1, 0, units);
      closest.fill(Infinity, 0, units);
      for (let k = tokenOffsets[doc]!; k < tokenOffsets[doc + 1]!; k += 3) {
        const mask = (groupsOf.get(flat[k]!) ?? 0) & found;
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
}

/** Scratch for proximity(): units of a query are at most 31 (one bit each). */
const last = new Float64Array(32);
const closest = new Float64Array(32);
/** Scratch for wholeName(): one slot per word of a name. */
const bestPerWord = new Float32Array(31);

/** Term → the units (one bit each, at most 31) whose alternatives hold it. */
function unitsOfTerms(alternatives: ReadonlyArray<readonly Alternative[]>): Map<number, number> {
  const units = new Map<number, number>();
  alternatives.forEach((list, g) => {
    if (g >= 31) return;
    for (const a of list) for (const t of a.terms) units.set(t, (units.get(t) ?? 0) | (1 << g));
  });
  return units;
}

/**
 * Documents in ranking order: tier, units found (higher first), typing errors (fewer first),
 * score (higher first, to 0.01), then document (name order). Each is packed into one double
 * (2 + 5 + 6 + 22 bits and the document's) so that a native numeric sort orders them.
 */
class RankOrder {
  private readonly keys: Float64Array;
  private readonly docSpace: number;
  private used = 0;
  /** Larger directories than 2^18 fall back to a comparator. */
  private readonly entries: Array<{ doc: number; key: number[] }> | null;

  constructor(capacity: number, documents: number) {
    this.docSpace = 2 ** Math.max(1, Math.ceil(Math.log2(documents + 1)));
    this.keys = new Float64Array(capacity);
    this.entries = this.docSpace > 2 ** 18 ? [] : null;
  }

  add(doc: number, tier: number, covered: number, typos: number, score: number): void {
    const quantized = Math.min(SCORE_SPACE - 1, Math.max(0, Math.round(score * 100)));
    if (this.entries !== null) {
      this.entries.push({ doc, key: [-tier, -covered, typos, -quantized, doc] });
      return;
    }
    const head = ((2 - tier) * 32 + (31 - Math.min(covered, 31))) * 64 + Math.min(typos, 63);
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
    return Int32Array.from(keys, (key) => key % this.docSpace);
  }
}

/** Scores are kept to 0.01 in 22 bits (up to 41,943.03: a query of many rare words). */
const SCORE_SPACE = 2 ** 22;

/** A group's alternatives and those of its parts. */
function allAlternatives(group: Group): Alternative[] {
  return group.parts === null ? group.alternatives : [...group.alternatives, ...group.parts.flatMap(allAlternatives)];
}

/**
 * Term → the best weight with which the query names it as a word: single-word alternatives,
 * not completions of a word still being typed, nor one word of a longer expression.
 */
function matchedTermWeights(alternatives: ReadonlyArray<readonly Alternative[]>): Map<number, number> {
  const weights = new Map<number, number>();
  for (const list of alternatives) {
    for (const a of list) if (a.terms.length === 1 && !a.completion) weights.set(a.terms[0]!, Math.max(weights.get(a.terms[0]!) ?? 0, a.weight));
  }
  return weights;
}

/** BM25's inverse document frequency. */
function inverseDocumentFrequency(size: number, df: number): number {
  return Math.log(1 + (size - df + 0.5) / (df + 0.5));
}
