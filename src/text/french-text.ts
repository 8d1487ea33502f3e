/**
 * Text normalisation shared by the import (what is stored) and the query path (what is
 * searched), so both sides fold the same way.
 */

// Zero-width and invisible formatting characters that change no meaning but break matching.
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
// C0/C1 controls other than tab and newline.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** NFC, without zero-width characters or control characters (tab and newline kept). */
export function normalizeText(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE, '').replace(CONTROL, '');
}

// Bidirectional embeddings, overrides, isolates and marks: they reorder how text is shown.
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
// Every C0/C1 control (tab and newline included) and the line and paragraph separators.
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;

/**
 * A value a person typed, as a page may show it back: without control, bidirectional or
 * zero-width characters (a control becomes a space), spaces collapsed, trimmed. What the
 * search reads is the same text with those characters already ignored (normalizeText).
 */
export function visibleText(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE, '').replace(BIDI, '').replace(ANY_CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', đ: 'd', ł: 'l', ı: 'i' };
const LIGATURE_RE = /[œæßøđłı]/g;
const COMBINING_MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NOT_ASCII_WORD = /[^a-z0-9]+/g;

/**
 * Folds French text for matching: case, accents, ligatures and punctuation go away
 * (`Élève` → `eleve`, `Œuvre` → `oeuvre`, `l'écriture` → `l ecriture`).
 * The result is lowercase words separated by single spaces.
 */
export function foldFrench(text: string): string {
  // Printable ASCII (most queries) has no accent, ligature or invisible character to fold:
  // the same result in two passes instead of six.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(NOT_ASCII_WORD, ' ').trim();
  return text
    .replace(INVISIBLE, '')
    .toLowerCase()
    .replace(LIGATURE_RE, (c) => LIGATURES[c] ?? c)
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(NOT_WORD, ' ')
    .trim();
}

/**
 * Whitespace and ASCII punctuation: characters foldFrench turns into a cut between words
 * whatever stands around them (none is invisible, a mark or a letter after NFKD).
 */
const CUT = /[\t\n\v\f\r \u00a0!-/:-@[-`{-~]+/;
/** Greek: the one letter whose lower case depends on what follows it (a final sigma). */
const GREEK = /[\u0370-\u03ff\u1f00-\u1fff]/;

/**
 * A text cut into pieces whose folds, joined by single spaces (empty ones left out), are
 * `foldFrench(text)`: a long text's pieces recur (`élèves`, `classe`), so a caller folds each
 * distinct piece once instead of folding every text whole.
 */
export function foldPieces(text: string): string[] {
  return GREEK.test(text) ? [text] : text.split(CUT);
}

/** The distinct folded words of a text, in order of first appearance. */
export function foldedWords(text: string): string[] {
  const folded = foldFrench(text);
  return folded === '' ? [] : [...new Set(folded.split(' '))];
}

/** Damerau-free Levenshtein distance, bounded: returns `max + 1` as soon as it is exceeded. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let curr = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      curr[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev, curr] = [curr, prev];
  }
  return prev[b.length]!;
}

/** The candidates closest to `input` (at most `limit`, within a distance that grows with length). */
export function closest(input: string, candidates: Iterable<string>, limit = 3): string[] {
  const max = input.length <= 4 ? 1 : input.length <= 8 ? 2 : 3;
  const scored: Array<[string, number]> = [];
  for (const c of candidates) {
    const d = c.startsWith(input) && input.length >= 3 ? 0.5 : editDistance(input, c, max);
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  return scored.slice(0, limit).map((s) => s[0]);
}
