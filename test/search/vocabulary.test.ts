/**
 * The vocabulary's typo look-up (src/search/vocabulary.ts) prunes a walk over sorted words;
 * a full scan with the textbook distance is the reference, on random vocabularies.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Vocabulary } from '../../src/search/vocabulary.js';

/** Optimal string alignment distance, the textbook way. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 1, maxLength: 10 });

test('vocabulary › fuzzy finds exactly the words within the bound, with their distance', () => {
  fc.assert(
    fc.property(fc.array(word, { minLength: 1, maxLength: 300 }), word, fc.integer({ min: 0, max: 2 }), (words, query, max) => {
      const vocabulary = Vocabulary.of(words);
      const got = vocabulary.fuzzy(query, max).map((m) => `${vocabulary.words[m.index]}:${m.distance}`).sort();
      const want = [...new Set(words)].filter((w) => distance(w, query) <= max).map((w) => `${w}:${distance(w, query)}`).sort();
      assert.deepEqual(got, want);
    }),
    { numRuns: 500 },
  );
});

test('vocabulary › prefixRange holds exactly the words that start with the prefix', () => {
  fc.assert(
    fc.property(fc.array(word, { maxLength: 200 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 3 }), (words, prefix) => {
      const vocabulary = Vocabulary.of(words);
      const [from, to] = vocabulary.prefixRange(prefix);
      assert.deepEqual(vocabulary.words.slice(from, to), [...new Set(words)].sort().filter((w) => w.startsWith(prefix)));
    }),
    { numRuns: 500 },
  );
});
