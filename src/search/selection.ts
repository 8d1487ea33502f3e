/**
 * Which tools a query's units select (docs/search.md, "Which tools match"). Every unit found
 * somewhere is required; a unit found nowhere is dropped, but a query whose units are as
 * often found nowhere as somewhere (`recette de cuisine`, `jardinage bio`, `washing machine`)
 * selects nothing. When a few tools hold every unit, the closest others fill the first page:
 * those holding every rarer unit (the common ones, such as `élèves` or `classe`, aside), else
 * those missing one. When none holds them all, the query is relaxed: of one or two units, to
 * the tools holding its rarer units (or either); of three or more, to those holding the most
 * of them and those holding its rarer units, ranked by the share of the query's information
 * they hold, and to nothing when no tool holds two of them. Under a page, an expression few
 * tools hold whole where it matters widens to its words (widenToWords).
 */
import { Bitset } from '../bitset.js';
import type { Evaluation } from './query-types.js';

/** Fewer tools than this holding every unit: the closest others fill the first page. */
export const FILL = 10;
/** A unit found in more than one tool in ten, and in more than MIN_COMMON tools, is common. */
const COMMON_SHARE = 1 / 10;
const MIN_COMMON = 8;
/** A keyword found in more tools than this share (and than MIN_COMMON) says nothing of the kind of tool asked for, to the rules against requests for something else. */
const TELLING_SHARE = 0.4;
/** A word found only in long texts is read with the query's rarest keyword when one in this many of its tools says it. */
const CORROBORATING_SHARE = 4;
/** How much more a unit naming a word of the tools' keywords (the kind of tool asked for) weighs in the share of the query a tool holds. */
const KEYWORD_WEIGHT = 2;

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
 * about what the directory holds — unless `school`: the query names a level or a subject,
 * and is about school whatever its other words (`taper au clavier` in primary school), or
 * it is one of the `forgiven` (a word of the lesson's topic, « une frise sur Napoléon »).
 * `french`: the query reads as French (QueryReading.language): a correction is then no
 * typing error below (measured to cost English queries). `classroom`: the query names a
 * class, pupils or teaching (QueryReading.classroom); `level`: it names a level as a class
 * (« 4e »), not through a child's age; `naming`: per unit of `required`,
 * whether it names a word of the tools' keywords (tags, category names); `subjectUnits`: per
 * unit of `required`, whether it is a subject the query names (`SVT`, « éducation musicale »).
 */
export function select(n: number, required: readonly Evaluation[], unknown: number, school = false, more: SelectOptions = {}): Selection | null {
  const selection = selectUnits(n, required, unknown, school, more);
  const { topical, naming, subjectUnits } = more;
  if (selection !== null || topical === undefined || !topical.includes(true) || topical.every((t) => t)) return selection;
  // Words of the lesson's topic that no tool holds together with the rest (« quiz sur les tables
  // de multiplication par 7 »: no quiz maker says `multiplication`): the tools the rest of the
  // query asks for, which the ranking orders by how much of the topic they hold.
  const rest = <T>(list: readonly T[] | undefined) => list?.filter((_, k) => !topical[k]);
  return selectUnits(n, rest(required)!, unknown, school, { ...more, forgiven: 0, naming: rest(naming), subjectUnits: rest(subjectUnits) });
}

interface SelectOptions {
  french?: boolean;
  forgiven?: number;
  classroom?: boolean;
  naming?: readonly boolean[];
  subject?: boolean;
  level?: boolean;
  subjectUnits?: readonly boolean[];
  /** Per unit of `required`, whether it is a word of the lesson's topic (« une frise sur Napoléon »). */
  topical?: readonly boolean[];
  /**
   * The tools the query's constraints keep (school facts, free tier, pupils' age), which filter
   * the answer afterwards (understood.ts, `constrained`); null when it states none. A page is
   * counted among them: a sentence whose constraints few of the tools holding its most words keep
   * reaches down to those holding fewer (« un logiciel de dessin gratuit … sans internet »).
   */
  keep?: Bitset | null;
}

function selectUnits(n: number, required: readonly Evaluation[], unknown: number, school = false, more: SelectOptions = {}): Selection | null {
  const { french = false, forgiven = 0, classroom = false, naming, subject = false, level = false, subjectUnits, keep = null } = more;
  const kept = (set: Bitset) => (keep === null ? set.count() : keep.countAnd(set));
  // A keyword most tools' texts say (`compte` of « compte rendu », `ligne` of « en ligne ») tells no kind of tool.
  const keywords = naming === undefined ? required.length : naming.filter((k, i) => k && required[i]!.set.count() <= Math.max(MIN_COMMON, n * TELLING_SHARE)).length;
  // A word found nowhere, in a query not about school (below), whose words found are
  // mostly not the tools' keywords (« comparer assurance auto jeune conducteur en ligne »:
  // `comparer`, `jeune`, `ligne`; « prendre rendez-vous chez un dermatologue »): a request for
  // something else, whose common words meet by chance. So is a word found only in long texts
  // (`used`, which the English ones write) beside words none of which is a keyword (`best
  // price for a used iPhone 13`); not beside one (`slideshow program … that works offline`).
  // A word found only in long texts that a quarter of the tools of the query's rarest keyword
  // also say (`speech bubbles` beside `comic strips`: the English passages of the comic-strip
  // makers) is read with that keyword, not against it; one tool in 39 is chance (`assurance auto`).
  const anchor = keywordAnchor(n, required, naming);
  const corroborated = (e: Evaluation) => anchor !== null && anchor.countAnd(e.set) * CORROBORATING_SHARE >= anchor.count();
  const weak = school ? 0 : Math.max(0, required.filter((e) => e.strong.isEmpty() && !corroborated(e)).length - forgiven);
  // A level or an age says whose need it is, not that the need is school's: with a word found
  // nowhere, it makes the query about school only beside a keyword of the tools, a subject or
  // a word of the class (« cartable à roulettes … pour enfant de CP », « ouvrir un compte
  // bancaire … pour mon fils de 16 ans »; but « … les voix des élèves »).
  // (Without `naming`, as widenToWords calls it, every unit counts as a keyword: `school` alone.)
  const aboutSchool = classroom || subject || (school && (keywords > 0 || unknown === 0));
  // Not a sentence naming a keyword few tools hold, whatever its other words (`byChance`).
  const named = required.length >= SENTENCE_UNITS && rareKeyword(n, required, naming);
  if ((unknown > 0 ? keywords * 2 < required.length : weak > 0 && keywords === 0) && !aboutSchool && !named) return null;
  // In a French query of three words or more, a word found only through a correction
  // (`réparer` → « préparer », `fuite` → « suite ») is a word of the language the directory
  // does not hold, not a typing error: it counts as found nowhere. Not in English, whose words
  // a correction often turns into their French neighbours (`lesson` → « leçon »).
  const corrected = french && required.length + unknown >= 3 ? required.filter((e) => !e.strong.isEmpty() && !e.set.some((doc) => e.typos[doc] === 0)).length : 0;
  // Found as often nowhere (or only in long descriptions) as somewhere: no plausible match.
  // Beside a subject the query names, one word found nowhere is the lesson's topic
  // (« histoire médiévale master », « SVT génétique »), not a sign the query asks for
  // something else; so are up to two beside a level named as a class (not a child's age:
  // `level`) and a word naming a kind of tool (« 4e théorème de Pythagore exercices »).
  const nowhere = (subject && unknown === 1) || (level && keywords > 0 && unknown <= 2) ? 0 : unknown;
  if (required.length === 0 || nowhere + weak + corrected >= Math.max(1, required.length - weak - corrected)) return null;
  const all = required.map((e) => e.set).reduce((a, b) => a.and(b));
  const full = all.count();
  // Words of a query that says nothing of school meet where a tool says what it is, not only
  // in long texts. Of two words, few tools holding both: the word naming a kind of tool (a
  // keyword) is said by one of them where it matters (« code de la route »: `code` of the coding
  // tools, `route` in their long texts). Of three or more in French, none holding them all:
  // some tool holds two of them in its name, description or keywords (« réserver un billet de
  // train »: `réserver` and `train` meet only in long texts), or one of them is a keyword few
  // tools hold (`rareKeyword`). Not in English, whose words the
  // tools' English passages hold, in their long texts.
  const common = (e: Evaluation) => e.set.count() > Math.max(MIN_COMMON, n * COMMON_SHARE);
  if (!aboutSchool && required.length >= 2) {
    if (full === 0 && french && required.length >= 3 && !meetStrongly(n, required.map((e) => e.strong)) && !rareKeyword(n, required, naming)) return null;
    // Unless one word is one most tools say and the other a keyword fewer tools say where they
    // say what they are (« créer une bibliographie », « produire une bibliographie »), or one
    // is a keyword few tools hold (« copie … rédigée par une IA »): that keyword is what is asked.
    const pair = naming !== undefined && required.length === 2 && (rareKeyword(n, required, naming) || required.some((e, i) => common(e) && !common(required[1 - i]!) && naming[1 - i] && !required[1 - i]!.strong.isEmpty()));
    if (full > 0 && full < FILL && required.length === 2 && naming !== undefined && !pair && required.some((e, i) => naming[i] && e.strong.countAnd(all) === 0)) return null;
  }
  if ((full > 0 && kept(all) >= FILL) || (full > 0 && required.length < 2)) return { candidates: all, coverage: null };
  const coverage = new Uint8Array(n);
  for (const e of required) e.set.addTo(coverage, 1);
  // The rarer units, when the query also has common ones (`élèves`, `outil`, `classe`): the
  // tools holding all of them are the closest others, whatever they say of the common ones.
  const rare = required.filter((e) => !common(e));
  // The ranking's shares, on the paths that select something.
  const rank = () => informationHeld(n, required, naming, subjectUnits);
  const rareSet = rare.length > 0 && rare.length < required.length ? rare.map((e) => e.set).reduce((a, b) => a.and(b)) : null;
  if (full > 0) {
    // Of three units or more, a tool missing one is close too, even when it misses a rare one
    // (`tenir` in « noter les absences et tenir le cahier de textes »).
    const fill = rareSet === null ? atLeast(coverage, required.length - 1, n) : required.length >= 3 ? rareSet.or(atLeast(coverage, required.length - 1, n)) : rareSet;
    fill.addSet(all);
    return { candidates: fill, coverage: rank() };
  }
  const rareFound = rareSet !== null && !rareSet.isEmpty();
  if (rareFound && required.length < 3) return { candidates: rareSet, coverage: rank() };
  // Of two units, either — but only when each is found somewhere as typed: a word found only
  // through a correction (`ortografe`) is not enough to show what the other word finds.
  // Nor when a third word of the query is found nowhere (`hair salon booking`): two words that
  // never meet, beside one the directory does not know, are no sign of a need it answers —
  // unless the query names a class or a subject: that word is then the lesson's topic (« nuage
  // de mots émotions ressenties en classe »; not a level alone: « 6e liste fournitures pas chère »).
  if (required.length === 2) {
    return (unknown === 0 || classroom || subject) && required.every((e) => e.set.some((doc) => e.typos[doc] === 0)) ? { candidates: atLeast(coverage, 1, n), coverage: rank() } : null;
  }
  // Of three or more, the tools holding the most of them (and, fewer than a page, fewer, but
  // never a single word of the query): the score then ranks first the tools holding the
  // rarer, more informative words, and those whose category the query names.
  let most = 0;
  for (let doc = 0; doc < n; doc++) if (coverage[doc]! > most) most = coverage[doc]!;
  // No tool holds two of them together (`résumé de match de foot`): no plausible match.
  if (most < 2) return null;
  // A query that names no level or subject, of which no tool holds half the words (those
  // found nowhere included): a request for something else whose common words meet by chance
  // (« réserver un billet de train Paris Lyon », `change the brake pads on my car`). Naming a
  // level or a subject, it is about school, and its longer sentences are answered by the
  // tools that hold the most.
  if (!school && most * 2 < required.length + unknown) return null;
  // Fewer than a page: one fewer, then down to half of them (`initier à la programmation d'un
  // petit robot qui se déplace`: the robot that says neither `initier` nor `déplace`); down to
  // two when the query names a level, a subject or a class: it is about school.
  let candidates = atLeast(coverage, most, n);
  const fewest = school || classroom ? 2 : Math.ceil(required.length / 2);
  for (let t = most - 1; t >= 2 && (t === most - 1 || t >= fewest) && kept(candidates) < FILL; t--) candidates = atLeast(coverage, t, n);
  if (rareFound) candidates.addSet(rareSet);
  // And the tools that say a keyword few tools hold where they say what they are, however few
  // of the sentence's other words they hold (« … produire une bibliographie propre pour le
  // Grand oral » and Zotero): the score ranks them.
  if (naming !== undefined) required.forEach((e, k) => {
    if (naming[k] && rareUnit(n, e)) candidates.addSet(e.strong);
  });
  return { candidates, coverage: rank() };
}

/**
 * Where the query's rarest telling keyword is said where it matters (a tag, a name, a short
 * description): a unit naming a word of the tools' keywords, found where it matters, in no
 * more tools than a common word is. Null when the query has none.
 */
function keywordAnchor(n: number, required: readonly Evaluation[], naming?: readonly boolean[]): Bitset | null {
  let anchor: Bitset | null = null;
  let fewest = Math.max(MIN_COMMON, n * COMMON_SHARE) + 1;
  required.forEach((e, k) => {
    if (naming !== undefined && !naming[k]) return;
    const count = e.strong.count();
    if (count > 0 && count < fewest) [anchor, fewest] = [e.strong, count];
  });
  return anchor;
}

function atLeast(coverage: Uint8Array, threshold: number, n: number): Bitset {
  const set = new Bitset(n);
  for (let doc = 0; doc < n; doc++) if (coverage[doc]! >= threshold) set.add(doc);
  return set;
}

/**
 * Per document, the share of the query's information it holds, on 0–31: each unit weighs its
 * inverse document frequency (`traduire` in a few tools tells more than `documents` in a
 * hundred or `français` in most; a unit in none, as in one), half as much when found only in the long description;
 * twice as much, of three units or more, when it names a word of the tools' keywords
 * (`naming`: `frise`, `quiz`, `podcast`, the kind of tool a sentence asks for, beside the
 * words of its story; of two, `faire parler une photo` is no photo tool first); twice as much
 * too, however many units, when it is a subject the query names (`subjectUnits`): in « SVT
 * terminale spécialité », which no tool holds whole, the life-science tools come before the
 * philosophy ones that say `spécialité`, a rarer word than `SVT`.
 */
function informationHeld(n: number, required: readonly Evaluation[], naming?: readonly boolean[], subjectUnits?: readonly boolean[]): Float32Array {
  const weights = required.map((e, k) => Math.log(1 + n / Math.max(1, e.set.count())) * ((naming?.[k] && required.length >= 3) || subjectUnits?.[k] ? KEYWORD_WEIGHT : 1));
  const scale = 31 / weights.reduce((a, b) => a + b, 0);
  const held = new Float32Array(n);
  required.forEach((e, k) => {
    // Half for holding it, half for holding it where it matters (the strong set is inside the set).
    const half = (weights[k]! * scale) / 2;
    e.set.addTo(held, half);
    e.strong.addTo(held, half);
  });
  return held;
}

/**
 * When fewer tools than a page are selected and a unit is a run of words the vocabulary knows
 * as one expression (`annotate pdf`, `graphing calculator`, `interactive whiteboard`) held
 * whole by fewer than a page where it matters (not only in a long description): the tools the query selects with that expression's words as
 * units of their own follow (as `annoter un pdf`, typed as words, finds them), so an English
 * expression is not poorer than its French words typed apart. The first selection stays first
 * (its share of the query on 15.5–31, the others' on 0–15.5). Null when nothing is to widen, or
 * when the words select nothing either (one of them found nowhere: `reading fluency`).
 * `selection`: what `found` selected (null when nothing was found at all, or when what was
 * found selected nothing, every unit being found somewhere: `parent-teacher meetings`, which
 * only long descriptions hold whole); `partsOf`: a unit's
 * words evaluated one by one, null for a unit of one word (evaluated here only, when needed).
 */
export function widenToWords(
  n: number, found: readonly Evaluation[], selection: Selection | null, partsOf: (unit: Evaluation) => readonly Evaluation[] | null, school = false, french = false,
): { selection: Selection; parts: Evaluation[] } | null {
  if (selection !== null && selection.candidates.count() >= FILL) return null;
  const split = found.map((e) => (e.strong.count() < FILL ? partsOf(e) : null));
  if (split.every((parts) => parts === null)) return null;
  const units = found.flatMap((e, k) => split[k] ?? [e]);
  const known = units.filter((e) => !e.set.isEmpty());
  const wider = known.length > 0 ? select(n, known, units.length - known.length, school, { french }) : null;
  if (wider === null) return null;
  const coverage = new Float32Array(n);
  const widerHeld = wider.coverage ?? informationHeld(n, known);
  wider.candidates.forEach((doc) => (coverage[doc] = widerHeld[doc]! / 2));
  if (selection !== null) {
    const held = selection.coverage ?? informationHeld(n, found);
    selection.candidates.forEach((doc) => (coverage[doc] = 15.5 + held[doc]! / 2));
  }
  return {
    selection: { candidates: selection === null ? wider.candidates : wider.candidates.or(selection.candidates), coverage },
    parts: split.flatMap((parts) => parts ?? []),
  };
}

/** Below this share of a query's information, the best tool it selects holds its words by chance (`byChance`). */
const CHANCE_SHARE = 0.38;
/** A keyword found in no more than this share of the tools names what a query asks for wherever it stands (`rareKeyword`, `select`). */
const RARE_SHARE = 0.04;
/** Units up to which a French query starting with a kind of tool is that tool and its topic (`byChance`). */
const KIND_AND_TOPIC_UNITS = 4;
/** Units from which a query is a sentence to `byChance`. */
export const SENTENCE_UNITS = 6;

/**
 * Whether the best of `candidates` holds less than CHANCE_SHARE of the information of a query
 * of three units or more, as `informationHeld` weighs it with no keyword or subject counted
 * twice (a unit found nowhere weighs the most). For a query that says nothing of school (no level, subject or class
 * word), that is a request for something else whose common words meet by chance: `TV
 * programme schedule tonight France 2`, « restaurant italien avec une bonne note près de la
 * gare », `difference between grade A and grade AA eggs` (0.22–0.37 on the judged sets,
 * where the needs without a word of school hold 0.39 and more). Long sentences hold less of
 * their many words, but they name the class or the level they are for. `namesKeyword`: per
 * unit, whether it names a word of the tools' keywords; `french`: the query reads as French.
 */
export function byChance(n: number, units: readonly Evaluation[], candidates: Bitset, namesKeyword: readonly boolean[], french = false): boolean {
  if (units.length < 3) return false;
  // A query that starts by naming a kind of tool (a telling keyword some tool says where it
  // says what it is) asks for it, and what follows is its topic: « frise seconde guerre
  // mondiale », an agent's `language learning reading imported articles known-word tracking`.
  // A longer French one starting with such a word is more often something else, whose other
  // words meet by chance (« plateforme de streaming pour regarder la Ligue 1 ce week-end »,
  // « modèle de note de frais à remplir… »): three false positives fewer, no need lost on the
  // judged sets (docs/search.md).
  const first = units[0]!;
  if ((!french || units.length <= KIND_AND_TOPIC_UNITS) && namesKeyword[0] && !first.strong.isEmpty() && first.set.count() <= Math.max(MIN_COMMON, n * TELLING_SHARE)) return false;
  // A sentence (six units or more) whose keyword few tools hold names what it asks for, however
  // little of its many other words the tools hold (a speech therapist's « pictogrammes … pour un
  // petit patient autiste »); a short request is not excused so (`Premier League scores today`).
  if (units.length >= SENTENCE_UNITS && rareKeyword(n, units, namesKeyword)) return false;
  // In French, a word found as typed somewhere holds only there: its corrections (`grise` →
  // « frise », « prise ») are other words, not typing errors.
  const held = informationHeld(n, units.map((e) => (french && e.exact && e.set.some((doc) => e.typos[doc]! > 0) ? asTyped(n, e) : e)));
  let best = 0;
  candidates.forEach((doc) => {
    if (held[doc]! > best) best = held[doc]!;
  });
  return best < CHANCE_SHARE * 31;
}

/**
 * Whether one of these units is a keyword few tools hold, some where they say what they are:
 * it names what is asked wherever it stands (« produire une bibliographie propre »), however
 * common or rare the query's other words.
 */
function rareKeyword(n: number, units: readonly Evaluation[], naming: readonly boolean[] | undefined): boolean {
  return naming !== undefined && units.some((e, k) => naming[k] && !e.strong.isEmpty() && rareUnit(n, e));
}

/** Whether a unit is found in no more than RARE_SHARE of the tools. */
const rareUnit = (n: number, e: Evaluation) => e.set.count() <= n * RARE_SHARE;

/** Whether some tool holds two of these sets' units. */
function meetStrongly(n: number, sets: readonly Bitset[]): boolean {
  const count = new Uint8Array(n);
  for (const set of sets) set.addTo(count, 1);
  for (let doc = 0; doc < n; doc++) if (count[doc]! >= 2) return true;
  return false;
}

/** A unit's evaluation without the documents it holds only through a correction. */
function asTyped(n: number, e: Evaluation): Evaluation {
  const set = new Bitset(n);
  const strong = new Bitset(n);
  e.set.forEach((doc) => {
    if (e.typos[doc] !== 0) return;
    set.add(doc);
    if (e.strong.has(doc)) strong.add(doc);
  });
  return { ...e, set, strong };
}
