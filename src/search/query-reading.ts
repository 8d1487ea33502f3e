/**
 * What a query says before any tool is matched (docs/search.md, "Reading a query"): the
 * words of conversation that no tool must contain (`je cherche`, `j'ai besoin d'`, `is there`,
 * `app`); the levels and subjects it names (`6e`, `cycle 3`, `SVT`, `hg`), soft constraints
 * that rank the tools that have them first and never by themselves empty the result;
 * whether it asks for tools at no charge (`gratuit`, `free`) or with a school fact (`hors
 * ligne`, `sans compte`, `open source`); and whether it asks for tools like one it names
 * (`alternative à Kahoot`, `comme Padlet`, `Quizlet alternative`). The lists are content
 * (content/search-vocabulary.yaml, levels.yaml, subjects.yaml), not code.
 */
import { isStopWord, isStopWordAt, languageOf } from './analyzer.js';
import { editDistance } from '../text/french-text.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import { readAges } from './pupil-ages.js';
import { englishWords } from './query-english.js';
import { mark, Role, type QueryLexicon } from './query-roles.js';

export { Role, type QueryLexicon } from './query-roles.js';


/** Names longer than this are not looked for in a query. */
const NAME_WORDS = 6;

export interface LexiconWords {
  readonly filler: readonly string[];
  readonly freeWords: readonly string[];
  readonly alternatives: readonly string[];
  readonly about?: readonly string[];
  readonly classroom?: readonly string[];
  readonly otherSenses?: readonly string[];
  readonly englishSenses?: ReadonlyArray<{ term: string; sense: string }>;
  readonly translations?: ReadonlyArray<{ term: string; finds: readonly string[] }>;
  /** Per entry of `school_facts`, its folded phrases. */
  readonly schoolFacts?: ReadonlyArray<{ words: readonly string[] }>;
  readonly pupils?: readonly string[];
  readonly onTheirOwn?: readonly string[];
  readonly classAges?: ReadonlyArray<{ age: number; words: readonly string[] }>;
  /** Per entry of `exams`, its folded phrases. */
  readonly exams?: ReadonlyArray<{ words: readonly string[] }>;
}

/** An expression the search knows, and how many terms the longest has. */
export interface KnownExpressions {
  readonly has: (words: readonly string[]) => boolean;
  /** Whether the synonyms know these words, one word or several. */
  readonly known: (words: readonly string[]) => boolean;
  readonly longest: number;
}

/** `names`: per document, its folded name (words joined by one space). */
export function buildLexicon(
  levels: VocabularyIndex | null, subjects: VocabularyIndex | null, words: LexiconWords, names: readonly string[], expressions: KnownExpressions | null = null,
): QueryLexicon {
  let longest = Math.max(levels?.longestTerm ?? 1, subjects?.longestTerm ?? 1);
  const starts = new Set<string>();
  const facts = new Map((words.schoolFacts ?? []).flatMap((f, entry) => f.words.map((w) => [w, { entry, searched: expressions?.known(w.split(' ')) ?? false }] as const)));
  const exams = new Map((words.exams ?? []).flatMap((e, entry) => e.words.map((w) => [w, entry] as const)));
  for (const phrase of [...words.filler, ...words.freeWords, ...facts.keys(), ...exams.keys(), ...words.alternatives, ...(words.about ?? []), ...(words.otherSenses ?? []), ...(levels?.terms.keys() ?? []), ...(subjects?.terms.keys() ?? [])]) {
    const first = phrase.split(' ', 1)[0]!;
    starts.add(first);
    longest = Math.max(longest, phrase.split(' ').length);
  }
  const byName = new Map<string, number[]>();
  // A word of four letters or more that only one name has names that tool too
  // (`PowerPoint` for « Microsoft PowerPoint »), unless it is a whole name itself.
  const owners = new Map<string, number>();
  let longestName = 1;
  names.forEach((name, doc) => {
    const nameWords = name.split(' ');
    for (const word of new Set(nameWords)) {
      if (word.length >= 4 && !isStopWord(word)) owners.set(word, owners.has(word) ? -1 : doc);
    }
    if (name === '' || nameWords.length > NAME_WORDS) return;
    longestName = Math.max(longestName, nameWords.length);
    for (const key of new Set([name, name.replaceAll(' ', '')])) {
      const docs = byName.get(key);
      if (docs === undefined) byName.set(key, [doc]);
      else docs.push(doc);
    }
  });
  for (const [word, doc] of owners) if (doc !== -1 && !byName.has(word)) byName.set(word, [doc]);
  const classAges = new Map((words.classAges ?? []).flatMap(({ age, words: classes }) => classes.map((c) => [c, age] as const)));
  return {
    pupils: new Set(words.pupils ?? []), onTheirOwn: new Set(words.onTheirOwn ?? []), classAges, longestClass: Math.max(1, ...[...classAges.keys()].map((c) => c.split(' ').length)),
    levels, subjects, filler: new Set(words.filler), freeWords: new Set(words.freeWords), facts, exams, alternatives: new Set(words.alternatives), about: new Set(words.about ?? []), otherSenses: new Set(words.otherSenses ?? []), classroom: new Set(words.classroom ?? []), englishSenses: new Map((words.englishSenses ?? []).map((e) => [e.term, e.sense.split(' ')])), englishWords: englishWords(words.translations ?? [], [...words.filler.filter((f) => languageOf(f.split(' ')) === 'fr'), ...(levels?.terms.keys() ?? []), ...(subjects?.terms.keys() ?? [])]), longest, starts, names: byName, longestName,
    // Stop words may stand between an expression's terms (`free to use`): a few more words.
    expression: expressions?.has ?? null, longestExpression: expressions === null ? 0 : expressions.longest + 2,
  };
}



export interface QueryReading {
  /** Per word of the query, its role. */
  readonly roles: readonly Role[];
  /** The levels and subjects it names (slugs, vocabulary order kept as met). */
  readonly levels: readonly string[];
  readonly subjects: readonly string[];
  /** The subjects of its topic words. */
  readonly topicSubjects: readonly string[];
  readonly free: boolean;
  /** The entries of `school_facts` it asks for (indices), as met. */
  readonly facts: readonly number[];
  /** The entries of `exams` it names (indices), as met: each also reads as its level. */
  readonly exams: readonly number[];
  /** Where it names them, as [first word, word count]. */
  readonly examsAt: ReadonlyArray<readonly [number, number]>;
  /** Subject names of several words (`sciences de la vie et de la terre`), as [first word, word count]: each is searched as one unit. */
  readonly phrases: ReadonlyArray<readonly [number, number]>;
  /** The documents named next to an alternative word (`alternative à Kahoot`): the query asks for tools like them. Empty else. */
  readonly similarTo: readonly number[];
  /** The language its stop words tell (`pour`, `mes`: French; `the`, `for`: English), null when they tell none. */
  readonly language: 'fr' | 'en' | null;
  /**
   * Per word, whether it says what the lesson is about (`Napoléon` in « une frise sur
   * Napoléon »): the words after an `about` phrase, up to the next complement. Found nowhere,
   * such a word is no sign the query asks for something else: the tools are for the rest.
   */
  readonly topic: readonly boolean[];
  /** Whether it names a class, pupils or teaching (`élèves`, `students`), whatever their role. */
  readonly classroom: boolean;
  /**
   * The pupils' age it states (« mes élèves de 5e » → 12, « 8 ans », `10-year-olds`), the
   * youngest when it states several; null when it states none. A filter, as GET /tools' `age`;
   * `ageInClass`: a class's age, said of a class or pupils (understood.ts, `forPupils`). */
  readonly age: number | null;
  readonly ageInClass: boolean;
  /** Whether its only level is a child's age stated outside a class (« pédiatre enfant 9 ans »). */
  readonly childsAgeOnly: boolean;
  /** The words that state its constraints (school facts, free of charge, the pupils' age), as [first word, word count]. */
  readonly constraints: ReadonlyArray<readonly [number, number]>;
}

/**
 * Words that start another complement after a lesson's topic (« un quiz sur les volcans pour
 * mes 5e », « with my class »): the topic stops there, as it does at a level, a subject or a
 * word of conversation.
 */
const TOPIC_ENDS = new Set(['pour', 'avec', 'afin', 'dans', 'en', 'chez', 'sans', 'for', 'with', 'in', 'using', 'without']);

/**
 * Reads the folded words of a query, the longest phrase first at each word: a filler phrase,
 * a level, a subject, a free word. A one-word stop word (`but`, `ses`) is a level or subject
 * only when typed in capitals (`SES`); `acronyms[i]` says whether word i was.
 */
export function readQuery(words: readonly string[], acronyms: readonly boolean[], lexicon: QueryLexicon): QueryReading {
  // Pushed one by one, not `words.map`: V8 makes a map's result holey or packed depending on
  // whether the caller runs optimised, and code reading `roles` that met one kind then left
  // its optimised code at every query of the other (measured: hundreds of times a minute).
  const roles: Role[] = [];
  for (let i = 0; i < words.length; i++) roles.push(isStopWordAt(words, i) ? Role.Stop : Role.Content);
  const levels: string[] = [];
  const subjects: string[] = [];
  const topicSubjects: string[] = [];
  const phrases: Array<[number, number]> = [];
  let free = false;
  const facts: number[] = [];
  const spans: Array<[number, number, Role]> = [];
  const exams: number[] = [];
  const examsAt: Array<[number, number]> = [];
  const topic: boolean[] = new Array<boolean>(words.length).fill(false);
  const plain: boolean[] = new Array<boolean>(words.length).fill(false);
  for (let i = 0; i < words.length; ) {
    if (!lexicon.starts.has(words[i]!)) {
      i++;
      continue;
    }
    let matched = 0;
    for (let length = Math.min(lexicon.longest, words.length - i); length >= 1 && matched === 0; length--) {
      const phrase = words.slice(i, i + length).join(' ');
      const single = length === 1;
      const usable = !single || roles[i] !== Role.Stop || acronyms[i] === true;
      if (!single && lexicon.otherSenses.has(phrase)) {
        // Words with another sense here (« seconde guerre mondiale »): to find, read as nothing else.
        for (let k = i; k < i + length; k++) plain[k] = true;
        matched = length;
      } else if (lexicon.filler.has(phrase) || lexicon.alternatives.has(phrase)) {
        // Conversation, or an alternative word, ends where a constraint begins that reaches past
        // it: « avec un logiciel libre » is « avec un » and the open-source constraint, not « avec
        // un logiciel » and « libre »; « une alternative libre à Padlet » is « une » and the
        // constraint said of an alternative (« alternative libre »), not « une alternative » and « libre ».
        const end = constraintStart(words, lexicon, i, i + length);
        mark(roles, i, end - i, lexicon.filler.has(phrase) ? Role.Filler : Role.Alternative);
        matched = end - i;
      } else if (lexicon.about.has(phrase)) {
        mark(roles, i, length, Role.Filler);
        for (let k = i + length; k < words.length && !TOPIC_ENDS.has(words[k]!) && !lexicon.about.has(words[k]!); k++) topic[k] = true;
        matched = length;
      } else if (lexicon.freeWords.has(phrase)) {
        mark(roles, i, length, Role.Free);
        free = true;
        spans.push([i, length, Role.Free]);
        matched = length;
      } else if (lexicon.facts.has(phrase)) {
        const { entry, searched } = lexicon.facts.get(phrase)!;
        if (!searched) mark(roles, i, length, Role.Fact);
        // A constraint said of an alternative (« alternative libre à Padlet ») asks for one too.
        if (lexicon.alternatives.has(words[i]!)) roles[i] = Role.Alternative;
        if (!facts.includes(entry)) facts.push(entry);
        spans.push([i, length, Role.Fact]);
        matched = length;
      } else if (usable && lexicon.exams.has(phrase)) {
        // An exam (`brevet`, `CEB`, `DELF`): its level, if it has one, and the work it asks for, ranked first.
        mark(roles, i, length, Role.Level);
        for (const slug of lexicon.levels?.terms.get(phrase) ?? []) if (!levels.includes(slug)) levels.push(slug);
        const entry = lexicon.exams.get(phrase)!;
        if (!exams.includes(entry)) exams.push(entry);
        examsAt.push([i, length]);
        matched = length;
      } else if (usable && lexicon.levels?.terms.has(phrase)) {
        mark(roles, i, length, Role.Level);
        for (const slug of lexicon.levels.terms.get(phrase)!) if (!levels.includes(slug)) levels.push(slug);
        matched = length;
      } else if (usable && lexicon.subjects?.terms.has(phrase)) {
        const narrower = lexicon.subjects.topics.has(phrase);
        // A single word is usable here only when it is no stop word or was typed as an
        // acronym (`SES`): it is the subject's name, not a stop word. Within a longer name,
        // stop words stay what they are (`sciences de la vie`).
        if (single) roles[i] = narrower ? Role.Topic : Role.Subject;
        else mark(roles, i, length, narrower ? Role.Topic : Role.Subject);
        const list = narrower ? topicSubjects : subjects;
        if (length > 1) phrases.push([i, length]);
        for (const slug of lexicon.subjects.terms.get(phrase)!) if (!list.includes(slug)) list.push(slug);
        matched = length;
      }
    }
    i += Math.max(1, matched);
  }
  for (const [from, length] of examsAt) preparing(words, roles, from, length);
  if (keepExpressions(words, roles, lexicon)) free = roles.includes(Role.Free);
  const similarTo = roles.includes(Role.Alternative) ? readNamed(words, roles, lexicon, spans) : [];
  // Beside a named tool, a constraint's words are the constraint only: the tools like it rank
  // (`alternative open source à Kahoot` ranks no tool for having « open » in its name).
  // Beside it too, the words of teaching (« pour les élèves », `where students join`) say what
  // the tools like it already are: words to find there would rank any tool that writes « élèves ».
  if (similarTo.length > 0) {
    for (const [from, length, role] of spans) if (role === Role.Fact) mark(roles, from, length, Role.Fact);
    for (let k = 0; k < words.length; k++) if (roles[k] === Role.Content && lexicon.classroom.has(words[k]!)) roles[k] = Role.Filler;
  }
  const levelsNamed = levels.length > 0;
  const ages = readAges(words, roles, lexicon, levels, plain);
  for (const [from, length] of ages.spans) spans.push([from, length, Role.Level]);
  // A topic ends where a word is read as something else (a level, a subject, conversation).
  for (let k = 0; k < words.length; k++) if (topic[k] && roles[k] !== Role.Content && roles[k] !== Role.Stop) for (let j = k; j < words.length && topic[j]; j++) topic[j] = false;
  // A free word kept in an expression (`free software`) states no constraint.
  const constraints = spans.filter(([from, , role]) => role !== Role.Free || roles[from] === Role.Free).map(([from, length]) => [from, length] as const);
  return { roles, levels, subjects, topicSubjects, free, facts, exams, examsAt, phrases, similarTo, language: languageOf(words, lexicon.englishWords, lexicon.englishSenses), topic, classroom: words.some((w, i) => !plain[i] && lexicon.classroom.has(w)), age: ages.age, ageInClass: ages.inClass, childsAgeOnly: ages.age !== null && !ages.inClass && !levelsNamed, constraints };
}

/** Where, after word `from`, a constraint begins whose phrase ends after word `end - 1`; else `end`. */
function constraintStart(words: readonly string[], lexicon: QueryLexicon, from: number, end: number): number {
  for (let k = from + 1; k < end; k++) if (constraintEndingAfter(words, lexicon, k, end)) return k;
  return end;
}

/** Whether a constraint's phrase (a school fact, free of charge) starts at word `k` and ends after word `end - 1`. */
function constraintEndingAfter(words: readonly string[], lexicon: QueryLexicon, k: number, end: number): boolean {
  for (let length = Math.min(lexicon.longest, words.length - k); k + length > end; length--) {
    const phrase = words.slice(k, k + length).join(' ');
    if (lexicon.facts.has(phrase) || lexicon.freeWords.has(phrase)) return true;
  }
  return false;
}

/** Words of preparing for an exam (folded), said next to it: « préparer le DELF », `DELF preparation`. */
const PREPARING = new Set(['preparer', 'preparation', 'preparez', 'prepare', 'preparing', 'prep', 'reussir', 'passer']);

/**
 * The word of preparing next to an exam (only stop words between) says what the exam already
 * says, and is conversation: « préparation DELF A2 » asks for the exam's work, not for the
 * tools that help teachers prepare their lessons.
 */
function preparing(words: readonly string[], roles: Role[], from: number, length: number): void {
  let k = from - 1;
  while (k >= 0 && roles[k] === Role.Stop) k--;
  if (k >= 0 && roles[k] === Role.Content && PREPARING.has(words[k]!)) roles[k] = Role.Filler;
  k = from + length;
  while (k < words.length && roles[k] === Role.Stop) k++;
  if (k < words.length && roles[k] === Role.Content && PREPARING.has(words[k]!)) roles[k] = Role.Filler;
}

/**
 * A word of conversation or of price that stands in an expression the search knows with the
 * query's other words (`homework help`, `mobile app`, `royalty free`, `free software`) is a
 * word of that expression, not set aside: the expression says what the tool is. Whether any was.
 */
function keepExpressions(words: readonly string[], roles: Role[], lexicon: QueryLexicon): boolean {
  const aside = (role: Role) => role === Role.Filler || role === Role.Free;
  if (lexicon.expression === null || !roles.some(aside)) return false;
  let changed = false;
  for (let i = 0; i < words.length; i++) {
    if (roles[i] === Role.Stop) continue;
    // The longest span from word i of words to find, set aside or stop words.
    let reach = 0;
    let firstAside = -1;
    while (reach < lexicon.longestExpression && i + reach < words.length) {
      const role = roles[i + reach]!;
      if (!aside(role) && role !== Role.Content && role !== Role.Stop) break;
      if (firstAside === -1 && aside(role)) firstAside = reach;
      reach++;
    }
    for (let length = reach; length >= 2 && length > firstAside && firstAside !== -1; length--) {
      if (!lexicon.expression(words.slice(i, i + length))) continue;
      for (let k = i; k < i + length; k++) if (aside(roles[k]!)) roles[k] = isStopWordAt(words, k) ? Role.Stop : Role.Content;
      changed = true;
      i += length - 1;
      break;
    }
  }
  return changed;
}

/**
 * The tools of the one name of a single word a typing error away from `word` (one letter
 * added, dropped or changed: « équivalent de Padlett »), for words of five letters or more;
 * undefined when none is, or more than one.
 */
function nearName(lexicon: QueryLexicon, word: string): readonly number[] | undefined {
  if (word.length < 5) return undefined;
  let found: readonly number[] | undefined;
  for (const [name, docs] of lexicon.names) {
    if (name.length < 5 || Math.abs(name.length - word.length) > 1 || name.includes(' ') || editDistance(word, name, 1) > 1) continue;
    if (found !== undefined) return undefined;
    found = docs;
  }
  return found;
}

/** Roles a query may have between an alternative word and the name it is about (`alternative gratuite à la…`). */
const between = (role: Role | undefined) => role === Role.Stop || role === Role.Free || role === Role.Fact || role === Role.Filler;
/** Roles a word of a tool's name may have been read as (`Lalilo`, `la Quizinière`, `Scratch`). */
const nameable = (role: Role) => role === Role.Content || role === Role.Stop || role === Role.Subject || role === Role.Topic;

/**
 * The tools named right after an alternative word or right before one, with only stop,
 * free, constraint or conversation words in between (`alternative gratuite à Kahoot`, `Quizlet
 * alternative`, `comme Padlet`): their words are marked `Named`. When none is, the
 * alternative words are words like any other (`pédagogie alternative`).
 */
function readNamed(words: readonly string[], roles: Role[], lexicon: QueryLexicon, spans: ReadonlyArray<readonly [number, number, Role]>): number[] {
  // The words of a constraint stated here stand between too, even those also searched
  // (`alternative open source à Kahoot`).
  const stated = (k: number) => spans.some(([from, length]) => k >= from && k < from + length);
  const at = (from: number, length: number): readonly number[] | undefined => {
    if (from < 0 || from + length > words.length) return undefined;
    let content = false;
    for (let k = from; k < from + length; k++) {
      if (!nameable(roles[k]!)) return undefined;
      if (roles[k] !== Role.Stop) content = true;
    }
    const slice = words.slice(from, from + length);
    if (!content) return undefined;
    return lexicon.names.get(slice.join(' ')) ?? lexicon.names.get(slice.join('')) ?? (length === 1 ? nearName(lexicon, slice[0]!) : undefined);
  };
  const named = (from: number, length: number, docs: readonly number[]): number[] => {
    mark(roles, from, length, Role.Named);
    return [...docs];
  };
  for (let i = 0; i < words.length; i++) {
    if (roles[i] !== Role.Alternative || roles[i + 1] === Role.Alternative) continue;
    // After it: the longest name starting at each word up to the first that may not stand between.
    for (let from = i + 1; from < words.length; from++) {
      for (let length = Math.min(lexicon.longestName, words.length - from); length >= 1; length--) {
        const docs = at(from, length);
        if (docs !== undefined) return named(from, length, docs);
      }
      if (!between(roles[from]) && !stated(from)) break;
    }
  }
  for (let i = words.length - 1; i >= 0; i--) {
    if (roles[i] !== Role.Alternative || roles[i - 1] === Role.Alternative) continue;
    // Before it: the longest name ending at each word, back to the first that may not stand between.
    for (let end = i - 1; end >= 0; end--) {
      for (let length = Math.min(lexicon.longestName, end + 1); length >= 1; length--) {
        const docs = at(end - length + 1, length);
        if (docs !== undefined) return named(end - length + 1, length, docs);
      }
      if (!between(roles[end]) && !stated(end)) break;
    }
  }
  for (let k = 0; k < words.length; k++) if (roles[k] === Role.Alternative) roles[k] = isStopWordAt(words, k) ? Role.Stop : Role.Content;
  return [];
}


