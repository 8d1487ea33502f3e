/**
 * npm run content:check: the content validated as the import does it, the school facts'
 * rules (vocabularies with the nearest value, sources for facts taken from terms, tags that
 * belong in `school`), and the coverage figures a publisher reads.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { fixtureDataset, school, tempDir, writeContent } from '../helpers/fixture.js';
import type { Dataset } from '../../src/domain.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/cli/content-check.ts');

async function check(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, CONTENT_DIR: '' } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function contentOf(t: TestContext, change: (d: Dataset) => void = () => {}): Promise<string> {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const dataset = fixtureDataset();
  change(dataset);
  return writeContent(path.join(dir, 'content'), dataset);
}

const tool = (d: Dataset, slug: string) => d.tools.find((x) => x.slug === slug)!;

test('content:check › valid content: exit 0 and the coverage of each school fact, with its target', async (t) => {
  const { code, stdout } = await check('--content', await contentOf(t));
  assert.equal(code, 0);
  assert.match(stdout, /files valid: 10 tools \(9 published\)/);
  assert.match(stdout, /levels\s+3 \/ 9\s+33\.3 % of published tools\s+✗ below 95 %/);
  assert.match(stdout, /min_age\s+2 \/ 2\s+100\.0 % of published tools pupils use\s+✓ ≥ 60 %/);
  assert.equal((await check('--content', await contentOf(t), '--strict')).code, 4, '--strict: below target is exit 4');
  // The tools English queries cannot find by an English passage of their own.
  assert.match(stdout, /English passages for the search \(search-english\.yaml\): 0 \/ 9 published tools; none for [a-z-]+(, [a-z-]+){8}\n/);
  const withOne = await check('--content', await contentOf(t, (d) => {
    d.searchVocabulary.english = { quizzy: 'Quiz maker for the classroom: teachers write multiple-choice questions and pupils answer them live.' };
  }));
  assert.match(withOne.stdout, /English passages for the search \(search-english\.yaml\): 1 \/ 9 published tools; none for (?![^\n]*quizzy)/);
});

test('content:check › a level or subject outside the vocabularies is named with the nearest valid value, or the slugs an alias stands for', async (t) => {
  const content = await contentOf(t, (d) => {
    tool(d, 'quizzy').school.levels = ['colege'];
    tool(d, 'eau-vive').school.subjects = ['hg'];
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /tools\/quizzy\.yaml:\d+: record "quizzy", field school\.levels\[0\]: "colege" is not a slug of content\/levels\.yaml; did you mean "college"\?/);
  assert.match(stderr, /tools\/eau-vive\.yaml:\d+: record "eau-vive", field school\.subjects\[0\]: "hg" is not a slug of content\/subjects\.yaml; it stands for histoire-geographie/);
});

test('content:check › a fact from terms needs its page; a page may not back a null fact; a bad enum value names the allowed ones', async (t) => {
  const content = await contentOf(t, (d) => {
    tool(d, 'quiz-master').school = school({ min_age: 13, data_location: 'outside_eu' });
    tool(d, 'eau-vive').school.sources = [{ fields: ['min_age', 'trains_on_user_data', 'data_location', 'institutional_access'], url: 'https://eau-vive.example.org/cgu', page_date: null, checked_at: '2999-01-01' }];
    (tool(d, 'quizzy').school as unknown as Record<string, unknown>).pupil_use = 'alone';
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /record "quiz-master", field school\.min_age: is 13 but no entry of school\.sources names the page that states it/);
  assert.match(stderr, /record "quiz-master", field school\.data_location: is "outside_eu" but no entry/);
  assert.match(stderr, /record "eau-vive", field school\.sources\[0\]\.fields: names institutional_access, which is null/);
  assert.match(stderr, /record "eau-vive", field school\.sources\[0\]\.checked_at: is in the future/);
  assert.match(stderr, /record "quizzy", field school\.pupil_use: must be one of independent, supervised, teacher_only/);
});

test('content:check › tags naming a level or a subject belong in school', async (t) => {
  const content = await contentOf(t, (d) => {
    tool(d, 'quizzy').tags = ['quiz', 'college', 'cycle-3'];
    tool(d, 'eau-vive').tags = ['svt', 'simulation'];
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /record "quizzy", field tags\[1\]: "college" is a level: put college in school\.levels instead/);
  assert.match(stderr, /record "quizzy", field tags\[2\]: "cycle-3" is a level: put elementaire, college in school\.levels instead/);
  assert.match(stderr, /record "eau-vive", field tags\[0\]: "svt" is a subject: put it in school\.subjects instead/);
});

test('content:check › a vocabulary with a repeated slug or an alias that is another entry’s slug is refused', async (t) => {
  const content = await contentOf(t);
  const file = path.join(content, 'levels.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace('- 6e\n', '- 6e\n    - lycee\n'));
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /levels\.yaml: record "college", field aliases: "lycee" is the slug of another entry/);
});

test('content:check › a phrase of the search vocabulary with no word is refused, naming its list and place', async (t) => {
  const content = await contentOf(t, (d) => {
    d.searchVocabulary.alternatives.push('« ! »');
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /search-vocabulary\.yaml.*field alternatives\[4\]: has no word \(got "« ! »"\)/);
});

test('content:check › an English sense must be one English word and other French words, naming the entry', async (t) => {
  const content = await contentOf(t, (d) => {
    d.searchVocabulary.englishSenses.push({ term: 'college students', sense: 'étudiants' }, { term: 'course', sense: 'Course' });
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /search-vocabulary\.yaml.*field english_senses\.college students: must be one word \(got "college students"\)/);
  assert.match(stderr, /search-vocabulary\.yaml.*field english_senses\.course: must be French words other than the English one \(got "Course"\)/);
});

test('content:check › a school fact of the search names a fact and values of the filters, and its words are no conversation or price words', async (t) => {
  const content = await contentOf(t, (d) => {
    d.searchVocabulary.schoolFacts.push(
      { label: 'sans rien', words: ['sans rien'], filter: {} },
      { label: 'gratuit et libre', words: ['libre', 'gratuit', 'je cherche', '« ! »'], filter: { open_source: true } },
    );
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /search-vocabulary\.yaml.*field school_facts\[3\]: names no fact \(pupil_use, pupil_account/);
  assert.match(stderr, /search-vocabulary\.yaml.*field school_facts\[4\]\.words\[1\]: is also in free_words \(got "gratuit"\)/);
  assert.match(stderr, /search-vocabulary\.yaml.*field school_facts\[4\]\.words\[2\]: is also in filler \(got "je cherche"\)/);
  assert.match(stderr, /search-vocabulary\.yaml.*field school_facts\[4\]\.words\[3\]: has no word \(got "« ! »"\)/);
  assert.doesNotMatch(stderr, /words\[0\]/, 'a word in no other list is no problem');
  // A value the filter does not take: named with the values it takes.
  const badValue = await contentOf(t, (d) => {
    d.searchVocabulary.schoolFacts.push({ label: 'données', words: ['en france'], filter: { data_location: ['paris' as 'france'] } });
  });
  const refused = await check('--content', badValue);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /search-vocabulary\.yaml:\d+: field school_facts\[3\]\.data_location\[0\]: must be one of device, france, eu, outside_eu \(got "paris"\)/);
});

test('content:check › an English text of the search names a tool of the directory, and says enough', async (t) => {
  const content = await contentOf(t, (d) => {
    d.searchVocabulary.english = { quizzy: 'Quiz maker for the classroom: teachers write multiple-choice questions and pupils answer.', 'quizz-inconnu': 'A quiz maker that the directory does not list anywhere at all.' };
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /search-english\.yaml:\d+: field quizz-inconnu: names no tool \(no file tools\/quizz-inconnu\.yaml\)/);
  assert.doesNotMatch(stderr, /field quizzy/);
  const short = await contentOf(t, (d) => {
    d.searchVocabulary.english = { quizzy: 'Quiz maker.' };
  });
  const refused = await check('--content', short);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /search-english\.yaml.*quizzy.*40/);
});

test('content:check › a classroom word must be one word, naming the entry', async (t) => {
  const content = await contentOf(t, (d) => {
    d.searchVocabulary.classroom.push('salle de classe');
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /search-vocabulary\.yaml.*field classroom\[3\]: must be one word \(got "salle de classe"\)/);
});

test('content:check › an expression of other senses must be two words or more, naming the entry', async (t) => {
  const content = await contentOf(t, (d) => {
    d.searchVocabulary.otherSenses = ['seconde guerre mondiale', 'seconde'];
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /search-vocabulary\.yaml.*field other_senses\[1\]: must be an expression of two words or more \(got "seconde"\)/);
});

test('content:check › a description that states a fact its field contradicts or leaves null is refused; so is a level below min_age for a tool pupils use', async (t) => {
  const content = await contentOf(t, (d) => {
    const quizzy = tool(d, 'quizzy');
    quizzy.long_description += ' Quizzy est un logiciel libre publié sur une forge. Les élèves rejoignent le quiz avec un code donné par l’enseignant.';
    quizzy.school.open_source = false;
    quizzy.school.pupil_account = 'personal';
    const eau = tool(d, 'eau-vive');
    eau.long_description += ' Les conversations des utilisateurs peuvent servir à entraîner les modèles, sauf refus dans les paramètres. Les conditions réservent les comptes aux plus de 16 ans.';
    eau.school.trains_on_user_data = null;
    eau.school.sources = [{ fields: ['min_age', 'consent_age', 'data_location'], url: 'https://eau-vive.example.org/cgu', page_date: null, checked_at: null }];
    eau.school.min_age = 13;
    eau.school.consent_age = 15;
    // Eau Vive (min_age 13) lists élémentaire (6–10) and pupils use it themselves.
    // A sentence that only sounds like one (not the tool's code; a model the user trains) is no fact.
    const atelier = tool(d, 'atelier-quiz');
    atelier.long_description += ' Les ressources sont publiées sous licence libre. Les élèves peuvent entraîner leur propre modèle sur des images.';
  });
  const { code, stderr } = await check('--content', content);
  assert.equal(code, 1);
  assert.match(stderr, /record "quizzy", field school\.open_source: is false but the description says it is open source/);
  assert.match(stderr, /record "quizzy", field school\.pupil_account: is "personal" but the description says pupils join without an account of their own/);
  assert.match(stderr, /record "eau-vive", field school\.trains_on_user_data: is null but the description speaks of training models on what users give/);
  assert.match(stderr, /record "eau-vive", field school\.min_age: is 13 .* but the description states 16/);
  assert.match(stderr, /record "eau-vive", field school\.levels: lists elementaire \(pupils of 6–10\) while the terms set min_age 13/);
  assert.doesNotMatch(stderr, /record "atelier-quiz"/);
});
