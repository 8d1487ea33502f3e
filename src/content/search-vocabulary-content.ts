/**
 * content/search-vocabulary.yaml (optional): what the search reads in a query besides the
 * tools' words (docs/search.md). Checked like the synonyms: every expression must leave a word
 * to look up, and a translation's French side must not be its English side again.
 */
import { EMPTY_SEARCH_VOCABULARY, type SchoolFactFilter, type SchoolFactHint, type SearchVocabulary } from '../domain.js';
import { expressionTerms } from '../search/synonyms.js';
import { foldFrench } from '../text/french-text.js';
import { SearchEnglishFile, SearchVocabularyFile } from './content-schema.js';
import type { ContentProblems } from './content-problems.js';
import { checkSchema, exists, readYaml } from './yaml-file.js';

export async function loadSearchVocabulary(file: string, shown: string, problems: ContentProblems): Promise<SearchVocabulary> {
  if (!(await exists(file))) return EMPTY_SEARCH_VOCABULARY;
  const yaml = await readYaml(file, shown, problems, null);
  if (yaml === undefined) return EMPTY_SEARCH_VOCABULARY;
  type RawFacts = SchoolFactFilter & { label: string; words: string[] };
  const raw = checkSchema<{ translations?: Record<string, string[]>; filler?: string[]; free_words?: string[]; alternatives?: string[]; about?: string[]; classroom?: string[]; other_senses?: string[]; english_senses?: Record<string, string>; school_facts?: RawFacts[]; pupils?: string[]; on_their_own?: string[]; class_ages?: Array<{ age: number; words: string[] }>; exams?: Array<{ words: string[]; finds: string[] }> }>(SearchVocabularyFile, yaml, shown, null, problems);
  if (raw === undefined) return EMPTY_SEARCH_VOCABULARY;
  const before = problems.list.length;
  const translations = Object.entries(raw.translations ?? {}).map(([term, finds]) => ({ term, finds }));
  for (const { term, finds } of translations) {
    if (expressionTerms(term) === null) problems.add(shown, null, `translations.${term}`, 'has no word the search looks up', yaml.lineOf(['translations', term]));
    finds.forEach((expression, i) => {
      const terms = expressionTerms(expression);
      if (terms === null) problems.add(shown, null, `translations.${term}[${i}]`, `has no word the search looks up (got ${JSON.stringify(expression)})`, yaml.lineOf(['translations', term, i]));
      else if (terms.join(' ') === expressionTerms(term)?.join(' ')) problems.add(shown, null, `translations.${term}[${i}]`, `is the English expression again (got ${JSON.stringify(expression)}); remove it`, yaml.lineOf(['translations', term, i]));
    });
  }
  const words = (list: string[] | undefined, field: string) =>
    (list ?? []).flatMap((phrase, i) => {
      const folded = foldFrench(phrase);
      if (folded === '') {
        problems.add(shown, null, `${field}[${i}]`, `has no word (got ${JSON.stringify(phrase)})`, yaml.lineOf([field, i]));
        return [];
      }
      return [folded];
    });
  const filler = [...new Set(words(raw.filler, 'filler'))];
  const freeWords = [...new Set(words(raw.free_words, 'free_words'))];
  const alternatives = [...new Set(words(raw.alternatives, 'alternatives'))];
  const about = [...new Set(words(raw.about, 'about'))];
  const classroom = [...new Set(words(raw.classroom, 'classroom'))];
  const otherSenses = [...new Set(words(raw.other_senses, 'other_senses'))];
  (raw.other_senses ?? []).forEach((phrase, i) => !foldFrench(phrase).includes(' ') && problems.add(shown, null, `other_senses[${i}]`, `must be an expression of two words or more (got ${JSON.stringify(phrase)})`, yaml.lineOf(['other_senses', i])));
  (raw.classroom ?? []).forEach((word, i) => foldFrench(word).includes(' ') && problems.add(shown, null, `classroom[${i}]`, `must be one word (got ${JSON.stringify(word)})`, yaml.lineOf(['classroom', i])));
  const englishSenses = Object.entries(raw.english_senses ?? {}).flatMap(([english, french]) => {
    const term = foldFrench(english);
    const sense = foldFrench(french);
    if (term === '' || term.includes(' ')) problems.add(shown, null, `english_senses.${english}`, `must be one word (got ${JSON.stringify(english)})`, yaml.lineOf(['english_senses', english]));
    else if (sense === '' || sense === term) problems.add(shown, null, `english_senses.${english}`, `must be French words other than the English one (got ${JSON.stringify(french)})`, yaml.lineOf(['english_senses', english]));
    else return [{ term, sense }];
    return [];
  });
  // A word read as a school fact is read as nothing else: not conversation, not price, not another fact.
  const taken = new Map<string, string>([...filler.map((w) => [w, 'filler'] as const), ...freeWords.map((w) => [w, 'free_words'] as const)]);
  const schoolFacts = (raw.school_facts ?? []).map(({ label, words: typed, ...filter }, i): SchoolFactHint => {
    if (Object.keys(filter).length === 0) problems.add(shown, null, `school_facts[${i}]`, 'names no fact (pupil_use, pupil_account, generative_ai, trains_on_user_data, data_location, institutional_access, offline, open_source)', yaml.lineOf(['school_facts', i]));
    const here = `school_facts[${i}]`;
    const folded = typed.flatMap((phrase, k) => {
      const word = foldFrench(phrase);
      const at = yaml.lineOf(['school_facts', i, 'words', k]);
      if (word === '') {
        problems.add(shown, null, `${here}.words[${k}]`, `has no word (got ${JSON.stringify(phrase)})`, at);
        return [];
      }
      const other = taken.get(word);
      if (other !== undefined && other !== here) problems.add(shown, null, `${here}.words[${k}]`, `is also in ${other} (got ${JSON.stringify(phrase)}); keep it in one place`, at);
      taken.set(word, here);
      return [word];
    });
    return { label, words: [...new Set(folded)], filter };
  });
  const pupils = [...new Set(words(raw.pupils, 'pupils'))];
  const onTheirOwn = [...new Set(words(raw.on_their_own, 'on_their_own'))];
  (raw.on_their_own ?? []).forEach((phrase, i) => foldFrench(phrase).split(' ').length > 2 && problems.add(shown, null, `on_their_own[${i}]`, `must be one or two words (got ${JSON.stringify(phrase)})`, yaml.lineOf(['on_their_own', i])));
  (raw.pupils ?? []).forEach((word, i) => foldFrench(word).includes(' ') && problems.add(shown, null, `pupils[${i}]`, `must be one word (got ${JSON.stringify(word)})`, yaml.lineOf(['pupils', i])));
  // A class names one age: the same words under two ages would make the age depend on the order.
  const classOf = new Map<string, number>();
  const classAges = (raw.class_ages ?? []).map(({ age, words: typed }, i) => ({
    age,
    words: [...new Set(words(typed, `class_ages[${i}].words`))].filter((word, k) => {
      const other = classOf.get(word);
      if (other !== undefined) problems.add(shown, null, `class_ages[${i}].words[${k}]`, `is also the class of age ${other} (got ${JSON.stringify(word)}); keep it under one age`, yaml.lineOf(['class_ages', i, 'words', k]));
      classOf.set(word, age);
      return other === undefined;
    }),
  }));
  // An exam is read as its level and its work, not as conversation, price or a school fact.
  const exams = (raw.exams ?? []).map(({ words: typed, finds }, i) => {
    const here = `exams[${i}]`;
    const folded = typed.flatMap((phrase, k) => {
      const word = foldFrench(phrase);
      const at = yaml.lineOf(['exams', i, 'words', k]);
      if (word === '') problems.add(shown, null, `${here}.words[${k}]`, `has no word (got ${JSON.stringify(phrase)})`, at);
      else if (taken.has(word) && taken.get(word) !== here) problems.add(shown, null, `${here}.words[${k}]`, `is also in ${taken.get(word)} (got ${JSON.stringify(phrase)}); keep it in one place`, at);
      else {
        taken.set(word, here);
        return [word];
      }
      return [];
    });
    finds.forEach((expression, k) => {
      if (expressionTerms(expression) === null) problems.add(shown, null, `${here}.finds[${k}]`, `has no word the search looks up (got ${JSON.stringify(expression)})`, yaml.lineOf(['exams', i, 'finds', k]));
    });
    return { words: [...new Set(folded)], finds };
  });
  if (problems.list.length > before) return EMPTY_SEARCH_VOCABULARY;
  return { translations, filler, freeWords, alternatives, about, classroom, otherSenses, englishSenses, schoolFacts, pupils, onTheirOwn, classAges, exams, english: {} };
}

/**
 * content/search-english.yaml (optional): per tool, what it is and does in English, in the
 * words an English-speaking teacher or an agent types (docs/search.md). Each slug must be a
 * tool's; `slugs`: the tools' slugs.
 */
export async function loadSearchEnglish(file: string, shown: string, slugs: ReadonlySet<string>, problems: ContentProblems): Promise<Record<string, string>> {
  if (!(await exists(file))) return {};
  const yaml = await readYaml(file, shown, problems, null);
  if (yaml === undefined) return {};
  const raw = checkSchema<Record<string, string>>(SearchEnglishFile, yaml, shown, null, problems);
  if (raw === undefined) return {};
  for (const slug of Object.keys(raw)) {
    if (!slugs.has(slug)) problems.add(shown, null, slug, `names no tool (no file tools/${slug}.yaml)`, yaml.lineOf([slug]));
  }
  return Object.fromEntries(Object.entries(raw).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([slug, text]) => [slug, text.replace(/\s+/g, ' ').trim()]));
}
