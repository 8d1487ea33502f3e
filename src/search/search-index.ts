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
 * units stand in the text; ties in name order (French collation). A sentence (four units or
 * more) that finds fewer than a page is followed by the tools closest to its first answers
 * (alike.ts, followedByClosest).
 */
import { Bitset } from '../bitset.js';
import { isStopWord, termOf } from './analyzer.js';
import { EMPTY_SEARCH_VOCABULARY, type SchoolFactHint, type SearchVocabulary, type SynonymSet } from '../domain.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import { buildLexicon, Role, type QueryLexicon, type QueryReading } from './query-reading.js';
import { constrained, keptByConstraints, keptAnswers, understood, type AgeFilter, type AgeSet, type ConstraintSets, type SearchResult, type UnderstoodQuery } from './understood.js';
import { examSetOf } from './exam-sets.js';

export type { SearchResult, UnderstoodQuery } from './understood.js';
import { readSentence } from './query-typing.js';
import { byChance, FILL, select, SENTENCE_UNITS, widenToWords } from './selection.js';
import { Memo } from '../memo.js';
import { runAtOnce, type Steps } from '../slices.js';
import { allAlternatives, categoryWeights, group, joinedAlternativesOf, matchedTermWeights, namesKeyword, units as unitsOf, unitsOfTerms } from './candidates.js';
import type { Evaluation, Group, KnownUnit, Unit } from './query-types.js';
import { buildIndexData, type SearchDocument, type SearchIndexData } from './index-data.js';
import { alikeTo, followedByClosest } from './alike.js';
import { RankOrder, Tier } from './rank-order.js';
import { evaluate, inAny, PROXIMITY_BONUS, proximity, wholeName, withSubjects } from './scoring.js';
import { CATEGORY_BONUS, EXAM_BONUS, EXAM_NAMED_BONUS, FACT_BONUS, FREE_BONUS, KNOWN_AGE_BONUS, LEVEL_BONUS, TOPIC_BONUS, WHOLE_NAME_BONUS } from './rank-bonuses.js';

export type { SearchDocument } from './index-data.js';


/** Units of a query (a need told in words, not keywords) from which the tools closest to fewer than a page of answers follow them. */
const CLOSEST_MIN_UNITS = 4;
const MEMO_LIMIT = 2_000;
/**
 * What the per-unit memo may hold, in bytes of per-document arrays: a unit's evaluation takes
 * about six bytes per tool, so the bundled directory keeps about 2,500 units, 20,000 tools 135.
 */
const UNIT_MEMO_BYTES = 16 * 2 ** 20;
/** Fewer units than this would fit in UNIT_MEMO_BYTES: no per-unit memo. */
const MIN_UNIT_MEMO = 64;

/** What the search reads in a query besides the tools' words: the school vocabularies and content/search-vocabulary.yaml. */
export interface SearchReading {
  levels?: VocabularyIndex | null;
  subjects?: VocabularyIndex | null;
  searchVocabulary?: SearchVocabulary;
  /** Per entry of the vocabulary's `school_facts`, the tools known to have its facts (read-model.ts: the school filters' sets). */
  factSets?: readonly Bitset[];
  /** The tools whose `for_pupils` answer at an age is one of `answers` (GET /tools' `age` filter, school-filters.ts). */
  ageSet?: AgeSet;
}

export class SearchIndex {
  private readonly memo = new Memo<string, SearchResult>(MEMO_LIMIT);
  /**
   * Each unit's alternatives and how the documents match them, kept per unit as typed (with
   * whether it is expanded and completed): a query never seen is mostly made of words seen
   * before (`gratuit`, `élèves`), and building and evaluating a unit is most of a search.
   */
  private readonly unitMemo: Memo<string, KnownUnit>;
  /** Scratch over every term for one search at a time (run): the query's weight and units per term, else 0. */
  private readonly termWeights: Float32Array;
  private readonly termUnits: Int32Array;
  /** Per entry of the vocabulary's `exams`, the tools its expressions select (examSet), once per revision. */
  private readonly examSets: Array<Bitset | undefined> = [];
  /** Per entry of `exams`, the tools whose file names one of its words (examSetOf, anywhere), once per revision. */
  private readonly examNamedSets: Array<Bitset | undefined> = [];
  readonly size: number;
  private readonly constraintSets: ConstraintSets;

  private constructor(
    private readonly ix: SearchIndexData,
    private readonly lexicon: QueryLexicon,
    private readonly facts: readonly SchoolFactHint[],
    private readonly factSets: readonly Bitset[],
    ageSet: AgeSet,
    private readonly exams: ReadonlyArray<{ readonly words: readonly string[]; readonly finds: readonly string[] }> = [],
  ) {
    this.size = ix.size;
    // The sets a query's constraints keep, once per revision (the free tier is a union).
    this.constraintSets = { facts, factSets, free: ix.free.or(ix.freemium), ageSet };
    this.termWeights = new Float32Array(ix.documentFrequency.length);
    this.termUnits = new Int32Array(ix.documentFrequency.length);
    // Past a few tens of thousands of tools, few units would fit, and keeping large arrays
    // alive past a query costs the garbage collector more than evaluating them again
    // (measured at 100,000 tools: twice the time per never-seen query): no memo there.
    const fits = Math.floor(UNIT_MEMO_BYTES / (ix.size * 6 + 4_096));
    this.unitMemo = new Memo(fits < MIN_UNIT_MEMO ? 0 : Math.min(8_192, fits));
  }

  /** Builds the index at once (tests, tools); the server drives `build` in slices. */
  static of(documents: readonly SearchDocument[], synonyms: SynonymSet, reading: SearchReading = {}): SearchIndex {
    return runAtOnce(SearchIndex.build(documents, synonyms, reading));
  }

  /**
   * Builds the index in slices (index-data.ts), so a server keeps answering meanwhile. The
   * search vocabulary's translations find their French expressions one way, as expansions do.
   */
  static *build(documents: readonly SearchDocument[], synonymSet: SynonymSet, reading: SearchReading = {}): Steps<SearchIndex> {
    const vocabulary = reading.searchVocabulary ?? EMPTY_SEARCH_VOCABULARY;
    const synonyms = vocabulary.translations.length === 0 ? synonymSet : { ...synonymSet, expansions: [...synonymSet.expansions, ...vocabulary.translations] };
    const ix = yield* buildIndexData(documents, synonyms, vocabulary.translations.map((t) => t.term));
    const termsOf = (words: readonly string[]) => words.filter((w) => !isStopWord(w)).map((w) => ix.termMemo.get(w, () => termOf(w)));
    const expressions = {
      has: (words: readonly string[]) => {
        const terms = termsOf(words);
        return terms.length >= 2 && ix.synonyms.has(terms);
      },
      // Words the synonyms know whole: a word, or an expression of two terms or more (not
      // `sans inscription`, whose one term the synonyms know alone).
      known: (words: readonly string[]) => {
        const terms = termsOf(words);
        return (terms.length >= 2 || (terms.length === 1 && words.length === 1)) && ix.synonyms.has(terms);
      },
      longest: ix.synonyms.longestKey,
    };
    const factSets = vocabulary.schoolFacts.map((_, k) => reading.factSets?.[k] ?? new Bitset(ix.size));
    return new SearchIndex(ix, buildLexicon(reading.levels ?? null, reading.subjects ?? null, vocabulary, ix.names, expressions), vocabulary.schoolFacts, factSets, reading.ageSet ?? ((): Bitset => new Bitset(ix.size)), vocabulary.exams ?? []);
  }

  /**
   * The tools matching `q`, best first; `age`: the list's age filter, when it keeps tools whose
   * answer is `unknown` (those known to suit it then rank first among equals, as when the query
   * states the age itself). Results are kept per distinct query and age.
   */
  search(q: string, age: AgeFilter | null = null): SearchResult {
    return this.memo.get(age === null ? q : `${q}\u0000${age.age}\u0000${age.answers.join()}`, () => constrained(this.find(q, age), this.constraintSets));
  }

  /**
   * What a query states (levels, subjects, age, school facts, free of charge, and their words),
   * read as a search reads it but not searched: `without`, counted by a search, is null.
   */
  understand(q: string): UnderstoodQuery {
    const { words, typedAt, reading } = readSentence(q, this.lexicon, this.ix.size === 0);
    return understood(words, reading, this.facts, typedAt);
  }

  private find(q: string, age: AgeFilter | null): SearchResult {
    const ix = this.ix;
    const n = ix.size;
    const { words, typedAt, flags, reading } = readSentence(q, this.lexicon, n === 0);
    const none = (reading: QueryReading | null): SearchResult => ({ ranked: new Int32Array(0), set: new Bitset(n), understood: understood(words, reading, this.facts, typedAt) });
    if (flags === null || reading === null) return none(null);
    const { acronyms, hyphens } = flags;
    const searched = (r: Role) => r === Role.Content || r === Role.Subject || r === Role.Topic;
    let kept = words.flatMap((_, i) => (searched(reading.roles[i]!) ? [i] : []));
    const onlyStopWords = reading.roles.every((r) => r === Role.Stop);
    if (onlyStopWords) kept = words.map((_, i) => i);
    const content = kept.map((i) => words[i]!);
    const alike = reading.similarTo.length > 0 ? alikeTo(this.ix, reading.similarTo) : null;

    // Search as you type completes the last word, unless a stop word, alone, an acronym (`ENT`), read as
    // something else, or after two words to find: a sentence's is typed whole (`mal`: no « malvoyant »).
    const last = words.length - 1;
    const completeLast = kept.length < 3 && !onlyStopWords && !acronyms[last] && kept.at(-1) === last && reading.roles[last] !== Role.Subject;

    const forced = new Map<number, number>();
    for (const [from, length] of reading.phrases) {
      const first = kept.findIndex((i) => i >= from);
      const count = kept.filter((i) => i >= from && i < from + length).length;
      if (first !== -1 && count > 1) forced.set(first, count);
    }
    const units = unitsOf(ix, content, onlyStopWords, forced);
    let offset = 0;
    const known = units.map((typed, k) => {
      const positions = kept.slice(offset, (offset += typed.words.length));
      const unit = hyphens !== null && positions.some((p) => hyphens[p]) ? { ...typed, compound: true } : typed;
      const subjects = positions.every((p) => reading.roles[p] === Role.Subject) ? this.subjectsOf(positions.length > 1 ? reading.phrases.find(([from, length]) => positions[0]! >= from && positions[0]! < from + length) : undefined, words, unit.words) : null;
      const complete = completeLast && k === units.length - 1;
      const own = this.unit(unit, !onlyStopWords, complete, subjects);
      // A subject's topic (`espagnol`) that no tool names, short of its long description: found
      // in the tools of its subject, as the subject's name is, rather than selecting nothing.
      if (subjects !== null || !own.evaluation.strong.isEmpty() || !positions.every((p) => reading.roles[p] === Role.Topic)) return own;
      const topicOf = this.subjectsOf(undefined, words, unit.words);
      return topicOf.length === 0 ? own : this.unit(unit, !onlyStopWords, complete, topicOf);
    });
    const joinedAlternatives = joinedAlternativesOf(ix, units);
    // A unit that gains such an alternative is evaluated anew (the memo's entry stays as is).
    const effective = known.map((u, k) =>
      joinedAlternatives[k]!.length === 0 ? u : this.know({ ...u.group, alternatives: [...u.group.alternatives, ...joinedAlternatives[k]!] }, u.subjects),
    );
    const groups = effective.map((u) => u.group);
    const scores = effective.map((u) => u.evaluation);
    // Words of the lesson's topic (« une frise sur Napoléon »), found nowhere or only in long
    // descriptions, are no sign the query asks for something else when the rest names a word of
    // the tools' keywords (`frise`, `quiz`, `podcast`), not any word (« des avis sur un restaurant »).
    let at = 0;
    const topical = units.map((u) => kept.slice(at, (at += u.words.length)).every((p) => reading.topic[p]));
    if (topical.includes(true) && !effective.some((u, k) => !topical[k] && namesKeyword(ix, u.group))) topical.fill(false);
    // A topic's word found only through a correction (`solaire` → « scolaire ») is a word the tools do not hold.
    const held = scores.map((s, k) => !s.set.isEmpty() && !(topical[k] && !s.set.some((doc) => s.typos[doc] === 0)));
    const found = scores.filter((_, k) => held[k]);
    // Who is taught (« stagiaires », `students`), found nowhere, is no sign of a request for something else.
    at = 0;
    const taught = units.map((u) => kept.slice(at, (at += u.words.length)).every((p) => this.lexicon.classroom.has(words[p]!)));
    const unknown = scores.filter((_, k) => !held[k] && !topical[k] && !taught[k]).length;
    const forgiven = scores.filter((s, k) => topical[k] && held[k] && s.strong.isEmpty()).length;
    // Naming a level or a subject, a query is about school: a word only long descriptions say (`clavier`) is a word like another.
    const school = reading.levels.length > 0 || reading.subjects.length > 0;
    const foundUnits = effective.filter((_, k) => held[k]); // as `found`, unit by unit
    const naming = foundUnits.map((u) => namesKeyword(ix, u.group));
    const subjectUnits = foundUnits.map((u) => u.subjects !== null);
    let selection = found.length > 0 ? select(n, found, unknown, school, { french: reading.language === 'fr', forgiven, classroom: reading.classroom, naming, subject: reading.subjects.length > 0, level: reading.levels.length > 0 && reading.age === null, subjectUnits, topical: topical.filter((_, k) => held[k]), keep: this.keptBy(reading) }) : null;
    // Fewer than a page, and an expression few tools hold whole: its words select the tools
    // that follow, and score them (the first ones count the expression's words too).
    const partsOf = (e: Evaluation) => {
      const parts = effective[scores.indexOf(e)]!.group.parts;
      return parts === null ? null : parts.map((p) => evaluate(ix, p));
    };
    // Also when what was found selects nothing, as long as every unit was found somewhere: an
    // expression only long descriptions hold whole (`parent-teacher meetings`) is then its words.
    const widen = alike === null && (selection !== null || found.length === 0 || found.length === scores.length);
    const wider = widen ? widenToWords(n, found.length > 0 ? found : scores, selection, partsOf, school, reading.language === 'fr') : null;
    if (wider !== null) selection = wider.selection;
    const scored = wider === null ? scores : [...scores, ...wider.parts];
    if (selection === null) {
      // A query for tools like a named one, with no other word found (`alternative à
      // Kahoot`): the tools like it.
      if (alike !== null) selection = { candidates: alike.set, coverage: null };
      else if (units.length > 0 || (reading.levels.length === 0 && reading.facts.length === 0 && reading.exams.length === 0 && !reading.free)) return none(reading);
      // A query that names only levels or school facts (or asks only for free tools): the tools with them.
      else selection = { candidates: this.softSet(reading), coverage: null };
    } else if (alike !== null) {
      // Its other words select (`comme Quizlet pour le vocabulaire`), the named tool aside.
      selection = { ...selection, candidates: selection.candidates.andNot(alike.named) };
    }
    const { candidates, coverage } = selection;
    // A child's age alone, in a short request, says who it is for, not that it is about school (« certificat médical pédiatre enfant 9 ans »).
    const schoolLevel = reading.subjects.length > 0 || (reading.levels.length > 0 && !(reading.childsAgeOnly && scores.filter((_, k) => !topical[k]).length < SENTENCE_UNITS));
    if (!schoolLevel && !reading.classroom && alike === null && scores.length >= 3 && byChance(n, scores.filter((_, k) => !topical[k]), candidates, groups.filter((_, k) => !topical[k]).map((g) => namesKeyword(ix, g)), reading.language === 'fr')) return none(reading);

    const members = candidates.slice(0, n);
    const flat = groups.map((g) => allAlternatives(g));
    // Term → weight and term → units, as arrays over every term (read once per word of each
    // matching tool's name and description), filled for this query and emptied after it.
    const { termWeights: weights, termUnits: groupsOf } = this;
    const weighted = matchedTermWeights(flat);
    const unitsByTerm = unitsOfTerms(flat);
    for (const [t, w] of weighted) weights[t] = w;
    for (const [t, bits] of unitsByTerm) groupsOf[t] = bits;
    try {
      return this.rank(members, candidates, coverage, scored, effective, groups.length, reading, words, weights, groupsOf, alike?.score ?? null, typedAt, age);
    } finally {
      for (const t of weighted.keys()) weights[t] = 0;
      for (const t of unitsByTerm.keys()) groupsOf[t] = 0;
    }
  }

  /** The members of a search in ranking order. */
  private rank(
    members: readonly number[], candidates: Bitset, coverage: Float32Array | null, scores: readonly Evaluation[], effective: readonly KnownUnit[],
    unitCount: number, reading: QueryReading, words: readonly string[], weights: Float32Array, groupsOf: Int32Array, alike: Float32Array | null,
    typedAt: ((i: number) => number) | null, age: AgeFilter | null,
  ): SearchResult {
    const ix = this.ix;
    const n = ix.size;
    const qFolded = words.join(' ');
    const qCompact = words.join('');
    // As Meilisearch's default rules: the name tiers, a match in the name, description or
    // keywords before one in the long description only, how many units are found, then fewer
    // typing errors, then the score; ties in name order. Each tool's place is packed into one
    // number and the numbers sorted natively: with thousands of matches, a comparator over
    // objects cost more than finding them.
    const levelSets = reading.levels.flatMap((l) => ix.levelSets.get(l) ?? []);
    const topicSets = reading.topicSubjects.flatMap((s) => ix.subjectSets.get(s) ?? []);
    const factSets = reading.facts.map((k) => this.factSets[k]!);
    const examSets = reading.exams.map((k) => this.examSet(k));
    const examNamed = reading.exams.map((k) => (this.examNamedSets[k] ??= examSetOf(ix, this.exams[k]?.words ?? [], true)));
    // Of the tools an age keeps (the query's own, or the list's filter), those known to suit it
    // rank before those whose answer nobody has read yet, among equals (KNOWN_AGE_BONUS).
    const kept = keptAnswers(reading);
    const ranking = kept === null ? age : { age: reading.age!, answers: kept };
    const known = ranking === null || !ranking.answers.includes('unknown') ? null : this.constraintSets.ageSet(ranking.age, ranking.answers.filter((a) => a !== 'unknown'));
    const order = new RankOrder(members.length, n);
    const qFirst = qCompact.charCodeAt(0);
    for (const doc of members) {
      let score = 0;
      let typos = 0;
      let strong = true;
      for (let k = 0; k < scores.length; k++) {
        const s = scores[k]!;
        score += s.score[doc]!;
        if (s.set.has(doc)) {
          typos += s.typos[doc]!;
          // A correction is no match in the name or description when the word as typed is
          // found elsewhere: `fiction` for `fractions` ranks after `fractions` in a long description.
          if (!s.strong.has(doc) || (s.exact && s.typos[doc]! > 0)) strong = false;
        }
      }
      // The units' weights for the tool's category, summed here rather than into an array per query.
      let category = 0;
      for (let k = 0; k < effective.length; k++) category += effective[k]!.categoryWeights[ix.categoryOf[doc]!]!;
      score += wholeName(ix, doc, weights) * WHOLE_NAME_BONUS + category * CATEGORY_BONUS;
      score += proximity(ix, doc, groupsOf, Math.min(unitCount, 31), scores) * PROXIMITY_BONUS;
      const level = levelSets.length === 0 || inAny(levelSets, doc);
      if (level && levelSets.length > 0) score += LEVEL_BONUS;
      if (inAny(topicSets, doc)) score += TOPIC_BONUS;
      if (inAny(examSets, doc)) score += EXAM_BONUS;
      if (inAny(examNamed, doc)) score += EXAM_NAMED_BONUS;
      if (reading.free) score += ix.free.has(doc) ? FREE_BONUS : ix.freemium.has(doc) ? FREE_BONUS / 3 : 0;
      for (let k = 0; k < factSets.length; k++) if (factSets[k]!.has(doc)) score += FACT_BONUS;
      if (known?.has(doc)) score += KNOWN_AGE_BONUS;
      if (alike !== null) score += alike[doc]!;
      const compact = ix.compactNames[doc]!;
      // Both tiers need the name to start as the query does: one character compared first.
      const tier =
        compact.charCodeAt(0) !== qFirst ? Tier.Other
          : ix.names[doc] === qFolded || compact === qCompact ? Tier.ExactName
            : qCompact.length >= 2 && (ix.names[doc]!.startsWith(qFolded) || compact.startsWith(qCompact)) ? Tier.NamePrefix
              : Tier.Other;
      order.add(doc, tier, coverage === null ? strong : true, coverage === null ? 0 : Math.round(coverage[doc]!), typos, score, level, levelSets.length > 0);
    }
    const ranked = order.ranked();
    // Fewer than a page for a need told in a sentence (not tools like a named one): the closest tools follow.
    const closest = alike !== null || unitCount < CLOSEST_MIN_UNITS ? null : followedByClosest(ix, ranked, candidates, FILL);
    return { ranked: closest?.ranked ?? ranked, set: closest?.set ?? candidates, understood: understood(words, reading, this.facts, typedAt) };
  }

  /**
   * The tools most like `doc`, closest first (at most `limit`): the catalogue's « Outils
   * proches », by the same measure as a query for alternatives to it.
   */
  similar(doc: number, limit: number): number[] {
    const { set, score } = alikeTo(this.ix, [doc]);
    const docs: number[] = [];
    set.forEach((d) => docs.push(d));
    return docs.sort((a, b) => score[b]! - score[a]! || a - b).slice(0, limit);
  }

  /** The tools a query's levels, school facts and free words select when it names nothing else: any of its levels, every fact. */
  private softSet(reading: QueryReading): Bitset {
    const sets = reading.levels.flatMap((l) => this.ix.levelSets.get(l) ?? []);
    // An exam with no level (`DELF`): the tools of its work.
    if (sets.length === 0) sets.push(...reading.exams.map((k) => this.examSet(k)));
    if (sets.length === 0 && reading.facts.length === 0 && reading.free) sets.push(this.ix.free, this.ix.freemium);
    const levels = sets.length === 0 ? null : sets.reduce((a, b) => a.or(b));
    return reading.facts.reduce((a: Bitset | null, k) => (a === null ? this.factSets[k]! : a.and(this.factSets[k]!)), levels) ?? new Bitset(this.ix.size);
  }

  /** The tools the constraints a query states keep (its school facts, the free tier, the pupils' age), or null when it states none. */
  private keptBy(reading: QueryReading): Bitset | null {
    if (reading.facts.length === 0 && !reading.free && reading.age === null) return null;
    return keptByConstraints({ facts: reading.facts.map((k) => this.facts[k]!), free: reading.free, age: reading.age, forPupils: keptAnswers(reading) }, this.constraintSets);
  }

  /** The tools an exam's work selects (exam-sets.ts), once per revision. */
  private examSet(k: number): Bitset {
    return (this.examSets[k] ??= examSetOf(this.ix, this.exams[k]?.finds ?? []));
  }

  /** The subjects a unit names: its phrase's (stop words included: `sciences de la vie…`), or its word's. */
  private subjectsOf(phrase: readonly [number, number] | undefined, words: readonly string[], unitWords: readonly string[]): string[] {
    const terms = this.lexicon.subjects?.terms;
    if (!terms) return [];
    const text = phrase ? words.slice(phrase[0], phrase[0] + phrase[1]).join(' ') : unitWords.join(' ');
    return [...(terms.get(text) ?? unitWords.flatMap((w) => terms.get(w) ?? []))];
  }

  /** A unit's group and its evaluation, from the memo when the unit was met before. */
  private unit(unit: Unit, expand: boolean, complete: boolean, subjects: readonly string[] | null): KnownUnit {
    const key = `${expand ? 1 : 0}${complete ? 1 : 0}${subjects ? 1 : 0}${unit.compound ? 1 : 0}${unit.words.join(' ')}`;
    // A subject's name that is a stop word in text (`SES` typed as an acronym: « ses élèves ») is found through the subject only.
    const byText = subjects === null || !unit.words.every((w) => isStopWord(w));
    return this.unitMemo.get(key, () => this.know(byText ? group(this.ix, unit, expand, complete) : { alternatives: [], literal: null, parts: null }, subjects));
  }

  /**
   * How the documents match a group, and its category weights. A unit that names a subject
   * (`svt`, `histoire`) is also found in the tools that have that subject, even if their text
   * does not say it.
   */
  private know(group: Group, subjects: readonly string[] | null): KnownUnit {
    const evaluation = evaluate(this.ix, group);
    if (subjects !== null) withSubjects(evaluation, subjects.flatMap((s) => this.ix.subjectSets.get(s) ?? []), this.ix.subjectCounts);
    return { group, evaluation, categoryWeights: categoryWeights(this.ix, allAlternatives(group)), subjects };
  }

}
