/**
 * The English side of reading a query: which words say a query is English, and a query read as
 * English with the words French writes with another meaning replaced by their English sense.
 */
import { isStopWord, languageOf } from './analyzer.js';
import { foldFrench } from '../text/french-text.js';
import type { QueryLexicon } from './query-roles.js';

/**
 * The words of the translations' English side that their French side never writes, stop
 * words aside, and words a French query types as well: French conversation (`app` in « une
 * app pour »), a level's or a subject's alias (`maths`, `college`).
 */
export function englishWords(translations: ReadonlyArray<{ term: string; finds: readonly string[] }>, shared: readonly string[]): Set<string> {
  const wordsOf = (text: string) => foldFrench(text).split(' ').filter((w) => w !== '' && !isStopWord(w));
  const french = new Set([...translations.flatMap((t) => t.finds.flatMap(wordsOf)), ...shared.flatMap(wordsOf)]);
  return new Set(translations.flatMap((t) => wordsOf(t.term)).filter((w) => !french.has(w)));
}

/**
 * A query read as English (languageOf), its words that French writes with another meaning
 * (`lecture`: reading; `college`: the level collège) replaced by the French words of their
 * English sense (`english_senses`: « cours », « enseignement supérieur ») — unless
 * the word stands in an expression the search knows with its neighbours (`lecture capture`).
 * `from`: per word of the result, the word of `words` it comes from. Null when nothing is replaced.
 */
export function inEnglish(words: readonly string[], lexicon: QueryLexicon): { words: string[]; from: number[] } | null {
  if (lexicon.englishSenses.size === 0 || !words.some((w) => lexicon.englishSenses.has(w)) || languageOf(words, lexicon.englishWords, lexicon.englishSenses) !== 'en') return null;
  const inExpression = (i: number) => {
    for (let length = Math.min(lexicon.longestExpression, words.length); length >= 2; length--) {
      for (let start = Math.max(0, i - length + 1); start <= i && start + length <= words.length; start++) {
        if (lexicon.expression?.(words.slice(start, start + length))) return true;
      }
    }
    return false;
  };
  const result: string[] = [];
  const from: number[] = [];
  words.forEach((w, i) => {
    const sense = lexicon.englishSenses.get(w);
    const replaced = sense !== undefined && !inExpression(i) ? sense : [w];
    for (const r of replaced) {
      result.push(r);
      from.push(i);
    }
  });
  return result.length === words.length && result.every((w, i) => w === words[i]) ? null : { words: result, from };
}
