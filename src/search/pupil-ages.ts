/**
 * The pupils' age a query states (docs/search.md, "Reading a query"; "Constraints are
 * filters"): an age in numbers, or a class said to be the pupils'.
 */
import { isStopWord } from './analyzer.js';
import { mark, Role, type QueryLexicon } from './query-roles.js';

/** Words that follow an age (`8 ans`, `8-year-olds`, `10 years old`), and those before a number that is no age (`depuis 10 ans`). */
const AGE_UNITS = new Set(['ans', 'an', 'year', 'years', 'yo']);
const AGE_AFTER = new Set(['old', 'olds']);
const NOT_AGE = new Set(['depuis', 'pendant', 'durant', 'since']);
/** Words before an age that say it is one (`aged 6 to 8`, « âgés de 6 à 8 ans »). */
const AGED = new Set(['aged', 'age', 'ages', 'agee', 'agees', 'agés']);
const BETWEEN_AGES = new Set(['a', 'to', 'et', 'and', 'ou', 'or']);

/** Words that may stand between a pupils' word and their class (« mes élèves de 5e », « ma classe de CM2 », `my class in grade 5`). */
const BEFORE_CLASS = new Set(['de', 'en', 'du', 'des', 'of', 'in']);
/** Words that lead to the pupils' age without being about the tool (« quiz pour mes CM2 », `for 10-year-olds`): dropped with it. */
const LEADING = new Set([...BEFORE_CLASS, 'pour', 'for', 'a', 'aux', 'avec', 'with', 'chez']);

/**
 * The pupils' age a query gives, and the levels it names by age:
 * - an age in numbers (« mes élèves de 8 ans », « de 3 à 6 ans », `8-year-olds`, `10 years
 *   old`): the youngest is the pupils' age, and the levels whose ages hold them (content/levels.yaml)
 *   are named, as a level's name is;
 * - a class (content/search-vocabulary.yaml, `class_ages`) said to be the pupils' by a word
 *   next to it (`pupils`: « mes 5e », « élèves de CM2 », `my 5th graders`): its pupils' usual age.
 *   A class named alone (« maths 6e ») is a level only.
 * Words of an expression with another sense (`plain`: « seconde classe » of a train) state neither.
 * `inClass`: an age is a class's (understood.ts, `forPupils`): a class's, or a number with a
 * word of teaching just before or after it (« mes élèves de 8 ans », `8-year-old students`) or
 * anywhere in the query (« J'enseigne en ULIS à des enfants de 7 à 11 ans… les règles de la
 * classe »; « mon fils de 10 ans… ses leçons »: an adult leads the tool with the child),
 * not a child's alone (« pour un enfant de 8 ans »), nor one whose pupils are said to use the
 * tool themselves (`on_their_own`: « seuls », « eux-mêmes »).
 */
export function readAges(words: readonly string[], roles: Role[], lexicon: QueryLexicon, levels: string[], plain: readonly boolean[]): { age: number | null; inClass: boolean; spans: Array<[number, number]> } {
  const entries = (lexicon.levels?.entries ?? []) as ReadonlyArray<{ slug: string; ages?: { min: number; max: number } }>;
  const spans: Array<[number, number]> = [];
  // The words stating an age, with the small words before them (« de », « mes »): the query
  // without them reads on (« quiz pour mes CM2 » → « quiz pour »; « élèves de 8 ans » → « élèves »).
  const span = (from: number, length: number) => {
    let start = from;
    while (start > 0 && (LEADING.has(words[start - 1]!) || AGED.has(words[start - 1]!) || (lexicon.pupils.has(words[start - 1]!) && isStopWord(words[start - 1]!)))) start--;
    spans.push([start, from + length - start]);
  };
  let youngest: number | null = null;
  let inClass = false;
  const stated = (age: number) => (youngest = youngest === null ? age : Math.min(youngest, age));
  // A word of teaching among the few before `i` (over small words and pupils' words) or right after `last`.
  const taught = (i: number, last: number) => {
    if (lexicon.classroom.has(words[last + 1] ?? '')) return true;
    for (let k = i - 1; k >= 0 && k >= i - 4; k--) {
      if (lexicon.classroom.has(words[k]!)) return true;
      if (!LEADING.has(words[k]!) && !lexicon.pupils.has(words[k]!)) return false;
    }
    return false;
  };
  for (let i = 0; i < words.length; i++) {
    if (!/^\d{1,2}$/.test(words[i]!) || roles[i] !== Role.Content || plain[i] || NOT_AGE.has(words[i - 1] ?? '')) continue;
    // The numbers of a range (« de 7 à 11 ans », « 14-15 ans », whose hyphen the words lose), and the unit after the last of them.
    let end = i;
    const numbers = [i];
    for (;;) {
      const between = BETWEEN_AGES.has(words[end + 1] ?? '') ? 1 : 0;
      if (!/^\d{1,2}$/.test(words[end + 1 + between] ?? '')) break;
      end += 1 + between;
      numbers.push(end);
    }
    // After a word of age (`aged 6 to 8`, « âgés de 6 à 8 ans »), the unit is not needed.
    const aged = AGED.has(words[i - 1] ?? '') || (BEFORE_CLASS.has(words[i - 1] ?? '') && AGED.has(words[i - 2] ?? ''));
    if (!AGE_UNITS.has(words[end + 1] ?? '') && !aged) continue;
    const last = !AGE_UNITS.has(words[end + 1] ?? '') ? end : AGE_AFTER.has(words[end + 2] ?? '') ? end + 2 : end + 1;
    for (const k of numbers) {
      const age = Number(words[k]);
      if (age >= 3) stated(age);
      for (const e of entries) if (e.ages && age >= e.ages.min && age <= e.ages.max && !levels.includes(e.slug)) levels.push(e.slug);
    }
    if (taught(i, last)) inClass = true;
    const from = !aged ? i : AGED.has(words[i - 1] ?? '') ? i - 1 : i - 2;
    mark(roles, from, last - from + 1, Role.Level);
    span(from, last - from + 1);
    i = last;
  }
  // Said to use it themselves (« que mes élèves de 4e peuvent utiliser seuls »), a class is
  // asking for what its pupils use on their own, not for what their teacher leads.
  const onTheirOwn = () => words.some((w, k) => lexicon.onTheirOwn.has(w) || lexicon.onTheirOwn.has(`${w} ${words[k + 1]}`));
  // A query that speaks of teaching anywhere (a word of `classroom`) is a teacher's, or an adult's
  // helping with school work: a number's age is its pupils'. Set 35's first run: its ULIS
  // teacher's sentence 0.00 → 1.00, its parent's 0.32 → 1.00; one sentence of set 30
  // 0.90 → 0.86 (docs/search.md).
  if (youngest !== null && !inClass && words.some((w, k) => !plain[k] && lexicon.classroom.has(w))) inClass = true;
  if (lexicon.classAges.size === 0) return { age: youngest, inClass: inClass && !onTheirOwn(), spans };
  const pupilsBefore = (i: number) => {
    for (let k = i - 1; k >= 0 && k >= i - 3; k--) {
      if (lexicon.pupils.has(words[k]!)) return true;
      if (!BEFORE_CLASS.has(words[k]!)) return false;
    }
    return false;
  };
  for (let i = 0; i < words.length; i++) {
    for (let length = Math.min(lexicon.longestClass, words.length - i); length >= 1; length--) {
      const age = lexicon.classAges.get(words.slice(i, i + length).join(' '));
      if (age === undefined) continue;
      // Its own words only when nothing else read them (a level's name, or words to find).
      if (!words.slice(i, i + length).every((_, k) => !plain[i + k] && (roles[i + k] === Role.Level || roles[i + k] === Role.Content || roles[i + k] === Role.Stop))) break;
      if (pupilsBefore(i) || lexicon.pupils.has(words[i + length] ?? '') || words.slice(i, i + length).some((w) => lexicon.pupils.has(w))) {
        stated(age);
        inClass = true;
        mark(roles, i, length, Role.Level);
        span(i, length);
      }
      i += length - 1;
      break;
    }
  }
  return { age: youngest, inClass: inClass && !onTheirOwn(), spans };
}
