/**
 * The search keeps what it learnt from earlier queries (each unit's alternatives and matches,
 * the corrections and terms of its words: src/search/search-index.ts). Whatever came before,
 * a query must get the answer a fresh index gives: on the bundled directory, for random
 * sequences of queries sharing words, typing errors, synonyms and words the text writes as one.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { loadContent } from '../../src/content/load-content.js';
import { SearchIndex, type SearchDocument } from '../../src/search/search-index.js';

const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
if (!loaded.ok) throw new Error('the bundled content does not load');
const { dataset } = loaded;
const categoryName = new Map(dataset.categories.map((c) => [c.slug, c.name]));
const documents: SearchDocument[] = dataset.tools.map((t) => ({ name: t.name, description: t.short_description, category: categoryName.get(t.category) }));

// Words that share units across queries, split compounds (`chat gpt`), synonyms, typing
// errors, stop words, and a last word still being typed.
const word = fc.oneof(
  fc.constantFrom(
    'quiz', 'quizz', 'chat', 'gpt', 'google', 'docs', 'photo', 'math', 'carte', 'mentale', 'mind', 'map', 'maths', 'mathematiques',
    'corection', 'correction', 'copies', 'eleves', 'classe', 'gratuit', 'tbi', 'ENT', 'de', 'pour', "l'", 'genialy', 'presentaton',
    'interactive', 'speech', 'to', 'text', 'nuage', 'mots', 'dictionnaire', 'traduire', 'un', 'document', 'podcast', 'geog', 'kahot',
    'QCM', 'dys',
  ),
  // Two words the text writes as one (`ChatGPT`, `Google Docs`, `Photomath`).
  fc.constantFrom('chat gpt', 'google docs', 'photo math', 'note book', 'pear deck', 'khan academy'),
);
const query = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));
const ranked = (index: SearchIndex, q: string) => Array.from(index.search(q).ranked);

test('search › a query gets the same answer whatever queries came before it', () => {
  const cold = new Map<string, number[]>();
  const coldAnswer = (q: string) => {
    let answer = cold.get(q);
    if (answer === undefined) cold.set(q, (answer = ranked(SearchIndex.of(documents, dataset.synonyms), q)));
    return answer;
  };
  const warm = SearchIndex.of(documents, dataset.synonyms);
  fc.assert(
    fc.property(fc.array(query, { minLength: 1, maxLength: 6 }), (queries) => {
      for (const q of queries) assert.deepEqual(ranked(warm, q), coldAnswer(q), `after ${JSON.stringify(queries)}: ${q}`);
    }),
    { numRuns: 60 },
  );
  // The sequences did share units: the same index answered them all.
  assert.ok(cold.size > 30);
});
