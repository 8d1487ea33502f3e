/**
 * foldFrench (src/text/french-text.ts) takes a short cut for printable ASCII; whatever the
 * text, it must fold exactly as the full sequence of passes does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { foldFrench, foldPieces } from '../../src/text/french-text.js';

/** The fold written out pass by pass: invisible characters, case, ligatures, accents, punctuation. */
function reference(text: string): string {
  const ligatures: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', đ: 'd', ł: 'l', ı: 'i' };
  return text
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '')
    .toLowerCase()
    .replace(/[œæßøđłı]/g, (c) => ligatures[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const text = fc.oneof(
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('a', 'É', 'é', 'œ', 'Œ', ' ', "'", '’', '-', 'ß', '\u200B', '\u00AD', '1', 'Z', '\t', '\n', 'ﬁ', 'ı'), maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.string({ unit: fc.constantFrom('Σ', 'σ', 'ς', 'α', '.', "'", ' ', 'a', '\u0301', 'İ', '\uFEFF', '\u00A0', '…', '½'), maxLength: 20 }),
);

test('foldFrench › the same fold for ASCII, French and any other text', () => {
  fc.assert(fc.property(text, (t) => assert.equal(foldFrench(t), reference(t))), { numRuns: 5_000 });
  assert.equal(foldFrench("L'Élève, l'œuvre & ChatGPT"), 'l eleve l oeuvre chatgpt');
  assert.equal(foldFrench("Carte  mentale -- QCM!"), 'carte mentale qcm');
});

test('foldPieces › folding each piece gives the fold of the whole text, whatever the text', () => {
  fc.assert(fc.property(text, (t) => assert.equal(foldPieces(t).map(foldFrench).filter((w) => w !== '').join(' '), foldFrench(t))), { numRuns: 10_000 });
  assert.deepEqual(foldPieces("L'Élève, l’œuvre"), ['L', 'Élève', 'l’œuvre']);
});
