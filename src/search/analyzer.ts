/**
 * How text becomes search terms, the same way for the directory (names and short
 * descriptions) and for `q`: fold case, accents, ligatures and punctuation (`foldFrench`),
 * then reduce each word to a term with Snowball's French stemmer, so that plural, feminine
 * and common inflections meet (`nuages`/`nuage`, `interactives`/`interactif`,
 * `détection`/`détecter`). Words are stemmed in their folded form on both sides: a query typed
 * without accents (`eleve`) must reach the same term as the text (`élève`).
 *
 * Stop words are Snowball's French list and an English one (the `stopword` package); they
 * are indexed, so a query made only of them can still match, but a query that has other
 * words does not need them. Elided articles (`l'`, `d'`, `qu'`) fold to one- or two-letter
 * words that are on those lists.
 */
import { stemmer as stemFrench } from '@orama/stemmers/french';
import { eng, fra } from 'stopword';
import { foldFrench } from '../text/french-text.js';

// `ai` is French for "(I) have", but in this directory it is mostly English for IA: it is a
// stop word only right after an elided `j'` (`j'ai`).
export const STOP_WORDS: ReadonlySet<string> = new Set(
  [...fra, ...eng].map((w) => foldFrench(w)).filter((w) => w !== '' && !w.includes(' ') && w !== 'ai'),
);

/**
 * Stop words only one of the two languages has, which tell the language a query is written
 * in (`the`, `for`, `my`; `les`, `pour`, `mes`). Left out: words the other language also
 * writes (`an` and `or` are French words, `but` a French word and a diploma, `son` and `ton`
 * English ones) and single letters an English contraction leaves (`s`, `t`, `m` of
 * `student's`, `don't`, `I'm`).
 */
const NOT_MARKERS = new Set(['an', 'or', 'but', 'son', 'ton', 'sa', 'ma', 'ta', 'te', 'y', 's', 't', 'm', 'i', 'd', 'a', 'on', 'me', 'do', 'est', 'es']);
const markers = (own: readonly string[], other: readonly string[]) => {
  const others = new Set(other.map((w) => foldFrench(w)));
  return new Set(own.map((w) => foldFrench(w)).filter((w) => w !== '' && !w.includes(' ') && !others.has(w) && !NOT_MARKERS.has(w)));
};
const FRENCH_MARKERS = markers(fra, eng);
const ENGLISH_MARKERS = markers(eng, fra);

/**
 * The language of a query's folded words, by the stop words only one language has: null when
 * it has none, or both kinds. With none (an agent's `lecture recording software`), English
 * when at least two of its words, and half of them, are `english` words (words of the English
 * side of the search vocabulary's translations that its French side never writes), leaving
 * aside the words `ambiguous` (those French also writes, whose sense is being decided:
 * `lecture CP` stays French).
 */
export function languageOf(words: readonly string[], english?: ReadonlySet<string>, ambiguous?: { has(word: string): boolean }): 'fr' | 'en' | null {
  let fr = false;
  let en = false;
  for (const w of words) {
    if (FRENCH_MARKERS.has(w)) fr = true;
    else if (ENGLISH_MARKERS.has(w)) en = true;
  }
  if (fr || en || english === undefined) return fr === en ? null : fr ? 'fr' : 'en';
  const others = words.filter((w) => !STOP_WORDS.has(w) && !ambiguous?.has(w));
  const known = others.filter((w) => english.has(w)).length;
  return known >= 2 && known * 2 >= others.length ? 'en' : null;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Whether the word at `i` is a stop word where it stands (`ai` only after `j`). */
export function isStopWordAt(words: readonly string[], i: number): boolean {
  const word = words[i]!;
  return STOP_WORDS.has(word) || (word === 'ai' && i > 0 && words[i - 1] === 'j');
}

/**
 * The term of a folded word. Snowball keeps a plural `s` after a vowel (`photos`, `videos`)
 * and some `x` plurals (`jeux`) whole; dropping a final `s`/`x` first makes singular and
 * plural meet. Words of three letters or fewer (`ios`, `ent`, `bd`) are kept as they are:
 * they are mostly acronyms.
 */
export function termOf(word: string): string {
  if (word.length <= 3) return word;
  return stemFrench(PLURAL.test(word) ? word.slice(0, -1) : word);
}

/**
 * The term of the infinitive of a French verb typed in the third person plural, which
 * Snowball leaves whole (`révisent`, `s'entraînent`, `corrigent`: « pour que mes élèves
 * révisent »), for the verbs in -er, most of them; null for another word. Only a query's
 * word is read so, as one more way to find it: `document` or `comment` stay what they are.
 * `own`: the word's own term, when the caller has it.
 */
export function infinitiveTerm(word: string, own: string = termOf(word)): string | null {
  if (word.length < 6 || !word.endsWith('ent') || word.endsWith('ment')) return null;
  const term = termOf(`${word.slice(0, -3)}er`);
  return term === own ? null : term;
}

// A final s (not ss) or x, except in -aux, which Snowball itself turns into -al (`locaux`).
const PLURAL = /(?:[^s]s|[^a]ux|eux|oux)$/;

export interface Token {
  /** The folded word as written (`nuages`). */
  word: string;
  /** Its position among the words of its text, from 0. */
  position: number;
  /** How many words of the text it stands for: 2 for two words run together. */
  span: number;
}

/** The folded words of a text, in order, with their positions. */
export function tokenize(text: string): Token[] {
  const folded = foldFrench(text);
  return folded === '' ? [] : folded.split(' ').map((word, position) => ({ word, position, span: 1 }));
}

// A lower-case letter followed by an upper-case one inside a word: `MindMeister`, `ChatGPT`.
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})/u;

/**
 * The words of a tool's name, plus the forms people type for it: the parts of a word in
 * camel case (`MindMeister` → `mind`, `meister`) and two adjacent words run together
 * (`Google Docs` → `googledocs`), each at the position of the word it comes from.
 */
export function nameTokens(name: string): Token[] {
  const tokens = tokenize(name);
  const extra: Token[] = [];
  let position = 0;
  for (const raw of name.split(/\s+/)) {
    const words = tokenize(raw);
    if (words.length === 0) continue;
    const parts = raw.split(CAMEL_BOUNDARY);
    if (parts.length > 1) {
      for (const part of parts) for (const t of tokenize(part)) if (t.word.length >= 2) extra.push({ word: t.word, position, span: 1 });
    }
    position += words.length;
  }
  for (let i = 0; i + 1 < tokens.length; i++) extra.push({ word: tokens[i]!.word + tokens[i + 1]!.word, position: i, span: 2 });
  const seen = new Set(tokens.map((t) => `${t.word} ${t.position}`));
  for (const t of extra) if (!seen.has(`${t.word} ${t.position}`)) tokens.push(t);
  return tokens;
}

/**
 * `text` without the words at `positions` (positions of tokenize(text)), as typed: accents,
 * capitals and punctuation of the words kept stay as they were (« maths CE2 hors connexion »
 * without 2, 3 → « maths CE2 »). A piece of text that holds a dropped word and a kept one
 * (`l'école`) is kept whole.
 */
export function textWithout(text: string, positions: readonly number[]): string {
  const drop = new Set(positions);
  const pieces = text.split(/\s+/).filter((p) => p !== '');
  const kept: string[] = [];
  let at = 0;
  for (const piece of pieces) {
    const count = tokenize(piece).length;
    let keep = count === 0;
    for (let k = at; k < at + count; k++) if (!drop.has(k)) keep = true;
    if (keep) kept.push(piece);
    at += count;
  }
  // Folded whole, a text may cut where its pieces do not (never met): the words kept, folded.
  if (at !== tokenize(text).length) return tokenize(text).filter((t) => !drop.has(t.position)).map((t) => t.word).join(' ');
  return kept.join(' ');
}

/**
 * A folded word as it sounds, roughly, in French and English spelling: `ph` → f, `th` → t,
 * `qu`, `ck`, hard `c` and `q` → k, soft `g` → j, `y` → i, `z` → s, silent `h` dropped,
 * doubled letters once, a final `e` dropped. Two words of one key (`phyfox`, « Phyphox »;
 * `jeniali`, « Genially ») are one spelling mistake apart for whoever typed them from the ear.
 */
export function soundKey(word: string): string {
  const key = word
    .replace(/ph/g, 'f').replace(/th/g, 't').replace(/ck/g, 'k').replace(/qu/g, 'k')
    .replace(/c(?=[eiy])/g, 's').replace(/[cq]/g, 'k').replace(/g(?=[eiy])/g, 'j')
    .replace(/y/g, 'i').replace(/z/g, 's').replace(/([^cs])h/g, '$1').replace(/^h/, '')
    .replace(/(.)\1+/g, '$1');
  return key.length > 3 && key.endsWith('e') ? key.slice(0, -1) : key;
}
