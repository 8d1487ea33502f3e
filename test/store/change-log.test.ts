/** toolChanges: what an import records for each tool, case by case (pure function, no store). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Dataset } from '../../src/domain.js';
import { changeInstant, toolChanges, type ChangeHistory } from '../../src/store/change-log.js';
import { fixtureDataset } from '../helpers/fixture.js';

const EMPTY: Dataset = { categories: [], tools: [], collections: [], synonyms: { families: [], equivalents: [], expansions: [] }, vocabularies: { levels: [], subjects: [] }, searchVocabulary: { translations: [], filler: [], freeWords: [], alternatives: [], about: [], classroom: [], englishSenses: [], schoolFacts: [], pupils: [], classAges: [], english: {} }, rules: [] };
const NONE: ChangeHistory = { slugs: new Set(), latest: null };
const AT = '2026-11-22T10:00:00Z';
const kinds = (before: Dataset, after: Dataset, history = NONE) =>
  toolChanges(before, after, history, 7, AT).map((c) => [c.kind, c.slug, c.previous_slug]);

function edit(change: (d: Dataset) => void): Dataset {
  const d = fixtureDataset();
  change(d);
  return d;
}
const tool = (d: Dataset, slug: string) => d.tools.find((t) => t.slug === slug)!;

test('change log › the first import: `created` for every published tool, none for the draft, in slug order', () => {
  const changes = toolChanges(EMPTY, fixtureDataset(), NONE, 1, AT);
  assert.deepEqual(changes.map((c) => c.slug), ['atelier-quiz', 'eau-vive', 'ecole-directe-test', 'ecrire-mieux', 'eleve-plus', 'oeuvre-studio', 'quiz-master', 'quizzy', 'zebre-math']);
  assert.ok(changes.every((c) => c.kind === 'created' && c.revision === 1 && c.at === AT));
  assert.deepEqual(changes.find((c) => c.slug === 'eleve-plus')!.tool, {
    name: 'Élève Plus',
    short_description: "Suivi de l'élève et carnet de bord numérique, pour les professeurs principaux du collège.",
    category: { slug: 'ecriture', name: 'Écriture' },
    pricing: 'paid',
    website_url: 'https://eleve-plus.example.org/',
  });
});

test('change log › nothing public changed, nothing recorded: a draft’s edit, a new former slug', () => {
  const after = edit((d) => {
    tool(d, 'brouillon').name = 'Autre brouillon';
    tool(d, 'eau-vive').former_slugs = ['eau-morte'];
  });
  assert.deepEqual(kinds(fixtureDataset(), after), []);
});

test('change log › a draft renamed or deleted leaves no trace; unpublishing keeps the last public slug and facts', () => {
  // Renamed and made draft in the same import: the public knew only the old slug and name.
  const after = edit((d) => Object.assign(tool(d, 'quizzy'), { slug: 'quizzy-2', name: 'Quizzy Secret', status: 'draft', former_slugs: ['quizzy'] }));
  const changes = toolChanges(fixtureDataset(), after, NONE, 2, AT);
  assert.deepEqual(changes.map((c) => [c.kind, c.slug, c.tool.name]), [['unpublished', 'quizzy', 'Quizzy']]);
  assert.deepEqual(kinds(fixtureDataset(), edit((d) => (d.tools = d.tools.filter((t) => t.slug !== 'brouillon')))), [], 'a draft deleted');
  assert.deepEqual(kinds(fixtureDataset(), edit((d) => (d.tools = d.tools.filter((t) => t.slug !== 'eau-vive')))), [['unpublished', 'eau-vive', null]], 'a file deleted');
});

test('change log › renamed while published; updated; republished when the log has seen it, under any of its slugs', () => {
  const renamed = edit((d) => Object.assign(tool(d, 'eau-vive'), { slug: 'eau-claire', former_slugs: ['eau-vive'], short_description: "Simulations du cycle de l'eau pour l'école primaire, désormais avec des vidéos." }));
  assert.deepEqual(kinds(fixtureDataset(), renamed), [['renamed', 'eau-claire', 'eau-vive']], 'one change per tool: the rename');
  assert.deepEqual(kinds(fixtureDataset(), edit((d) => (tool(d, 'eau-vive').updated_at = '2026-06-01T08:00:00Z'))), [['updated', 'eau-vive', null]]);

  const unpublished = edit((d) => (tool(d, 'quizzy').status = 'draft'));
  const seen: ChangeHistory = { slugs: new Set(['quizzy']), latest: AT };
  assert.deepEqual(kinds(unpublished, fixtureDataset(), seen), [['republished', 'quizzy', null]]);
  // Renamed while a draft, then published: the log knew it by its former slug.
  const comeback = edit((d) => Object.assign(tool(d, 'quizzy'), { slug: 'quizzy-pro', former_slugs: ['quizzy'] }));
  assert.deepEqual(kinds(unpublished, comeback, seen), [['republished', 'quizzy-pro', null]]);
  assert.deepEqual(kinds(unpublished, fixtureDataset(), NONE), [['created', 'quizzy', null]], 'never seen: created');
});

test('change log › the instant is the second of the import, never earlier than the last recorded one', () => {
  assert.equal(changeInstant(new Date('2026-11-22T10:00:00.900Z'), null), '2026-11-22T10:00:00Z');
  assert.equal(changeInstant(new Date('2026-11-22T10:00:00.900Z'), '2026-11-22T09:00:00Z'), '2026-11-22T10:00:00Z');
  assert.equal(changeInstant(new Date('2026-11-22T10:00:00Z'), '2026-11-22T11:00:00Z'), '2026-11-22T11:00:00Z', 'a clock that stepped back');
});
