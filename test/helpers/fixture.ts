/**
 * The small dataset the tests own (not the bundled content, which will change). Tests get
 * fresh copies, may change them, and write them out as content files.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { loadContent } from '../../src/content/load-content.js';
import { unknownSchoolFacts, type CollectionRecord, type Dataset, type PupilRuleSet, type SchoolFacts, type ToolRecord } from '../../src/domain.js';

const LONG =
  "Premier paragraphe de description, assez long pour passer la validation du contenu et décrire ce que fait l'outil pour les enseignants et les élèves.\n\n" +
  "Deuxième paragraphe : comment on l'utilise en classe, avec des exemples concrets et des conseils de mise en œuvre pour les équipes pédagogiques.\n\n" +
  'Troisième paragraphe : ses limites, la protection des données personnelles et la langue de son interface.';

function tool(slug: string, name: string, overrides: Partial<ToolRecord> = {}): ToolRecord {
  return {
    slug,
    name,
    status: 'published',
    category: 'quiz',
    website_url: `https://${slug}.example.org/`,
    logo_url: null,
    short_description: `Outil ${name} pour la classe : une description courte en français, pour les enseignants.`,
    long_description: LONG,
    pricing: { model: 'freemium', summary: 'Une offre gratuite et des offres payantes pour les établissements.', starting_price: null, url: null },
    education_program: null,
    screenshot: null,
    tags: ['test'],
    platforms: ['web'],
    languages: ['fr'],
    former_slugs: [],
    created_at: '2026-01-01T08:00:00Z',
    updated_at: '2026-01-01T08:00:00Z',
    last_verified_at: '2026-01-02T08:00:00Z',
    links_checked_at: null,
    link_status: null,
    link_redirects: {},
    school: unknownSchoolFacts(),
    ...overrides,
  };
}

/** The bundled school vocabularies (content/levels.yaml, subjects.yaml): the tests read the real aliases. */
const vocabulary = (name: string) => YAML.parse(readFileSync(path.resolve(import.meta.dirname, `../../content/${name}.yaml`), 'utf8'));
export const FIXTURE_VOCABULARIES = { levels: vocabulary('levels'), subjects: vocabulary('subjects') };
/** The bundled rules of "Can my pupils use it?" (content/rules/fr.yaml): the tests read the real ones. */
export const FIXTURE_RULES: PupilRuleSet[] = [vocabulary('rules/fr')];

/** School facts for a fixture tool: every fact unknown but those given. */
export function school(facts: Partial<SchoolFacts>): SchoolFacts {
  return { ...unknownSchoolFacts(), ...facts };
}

const EDU = { summary: 'Gratuit pour les enseignants et les élèves des établissements scolaires.', eligibility: ['enseignants', 'élèves'], url: null };

export function fixtureDataset(): Dataset {
  const tools: ToolRecord[] = [
    tool('quizzy', 'Quizzy', { school: school({ levels: ['elementaire', 'college'], subjects: ['transversal'], pupil_use: 'supervised', pupil_account: 'class_code', min_age: 0, generative_ai: 'none', trains_on_user_data: 'not_applicable', institutional_access: [], offline: false, open_source: true, sources: [{ fields: ['min_age'], url: 'https://quizzy.example.org/licence', page_date: null, checked_at: null }] }), education_program: EDU, pricing: { model: 'free', summary: 'Entièrement gratuit pour tous les utilisateurs.', starting_price: null, url: null }, updated_at: '2026-03-01T08:00:00Z' }),
    tool('quiz-master', 'Quiz Master', { short_description: 'Créer un quiz en quelques minutes et le projeter en classe pour faire réviser les élèves.', created_at: '2026-02-01T08:00:00Z', updated_at: '2026-02-01T08:00:00Z' }),
    tool('eleve-plus', 'Élève Plus', { category: 'ecriture', short_description: "Suivi de l'élève et carnet de bord numérique, pour les professeurs principaux du collège.", pricing: { model: 'paid', summary: 'Abonnement annuel payant par établissement, devis sur demande.', starting_price: { amount: 23, currency: 'EUR', period: 'month' }, url: 'https://eleve-plus.example.org/tarifs' } }),
    tool('oeuvre-studio', 'Œuvre Studio', { category: 'ecriture', short_description: "Atelier d'écriture guidé pour analyser une œuvre littéraire, du collège au lycée.", education_program: EDU }),
    tool('eau-vive', 'Eau Vive', { school: school({ levels: ['elementaire', 'college'], subjects: ['svt', 'physique-chimie'], pupil_use: 'independent', pupil_account: 'none', min_age: 10, consent_age: 15, generative_ai: 'feature', trains_on_user_data: 'no', data_location: 'eu', offline: true, open_source: false, sources: [{ fields: ['min_age', 'consent_age', 'trains_on_user_data', 'data_location'], url: 'https://eau-vive.example.org/cgu', page_date: '2026-09-01', checked_at: '2026-11-20' }] }), category: 'sciences', short_description: "Simulations du cycle de l'eau pour l'école primaire et le collège, avec des fiches d'activité." }),
    tool('ecrire-mieux', 'Écrire Mieux', { category: 'ecriture', short_description: "Correcteur d'orthographe et de grammaire, avec des explications adaptées aux élèves.", pricing: { model: 'enterprise', summary: 'Licences sur devis pour les académies et les réseaux d’établissements.', starting_price: null, url: null }, former_slugs: ['ecrire-plus'] }),
    tool('zebre-math', 'Zèbre Math', { category: 'sciences', short_description: 'Exercices de calcul mental progressifs pour le cycle 3, avec un quiz quotidien pour la classe.', updated_at: '2026-04-01T08:00:00Z' }),
    tool('atelier-quiz', 'Atelier', { school: school({ levels: ['lycee'], subjects: ['francais'], pupil_use: 'teacher_only', min_age: 18, generative_ai: 'core', open_source: false, offline: false, sources: [{ fields: ['min_age'], url: 'https://atelier-quiz.example.org/cgu', page_date: null, checked_at: null }] }), short_description: 'Générateur de quiz à partir d’un texte, pour préparer une évaluation formative rapidement.', education_program: EDU }),
    tool('brouillon', 'Brouillon Secret', { status: 'draft', short_description: 'Un outil encore en cours de relecture, qui ne doit apparaître nulle part dans l’API publique.' }),
    tool('ecole-directe-test', 'École Test', { category: 'sciences', short_description: 'Cahier de textes et messagerie pour les écoles, utilisé ici pour tester le tri des accents.' }),
  ];
  const collections: CollectionRecord[] = [
    {
      slug: 'creer-un-quiz', title: 'Créer un quiz', status: 'published', kind: 'top', task: 'Créer un quiz', persona: null,
      description: 'Les meilleurs outils pour créer un quiz en classe, du plus simple au plus complet.',
      items: [
        { tool: 'quizzy', note: 'Le plus simple pour commencer, gratuit pour les enseignants.' },
        { tool: 'brouillon', note: 'Un brouillon qui ne doit pas apparaître dans la collection.' },
        { tool: 'quiz-master', note: 'Pour projeter un quiz en classe entière avec un minuteur.' },
      ],
      created_at: '2026-01-01T08:00:00Z', updated_at: '2026-05-01T08:00:00Z',
    },
    {
      slug: 'professeur-de-lettres', title: 'Professeur de lettres', status: 'published', kind: 'stack', task: null, persona: 'Professeur de lettres',
      description: 'Une boîte à outils pour le professeur de lettres, de la correction à l’analyse des œuvres.',
      items: [
        { tool: 'oeuvre-studio', note: 'Pour guider l’analyse d’une œuvre avec la classe.' },
        { tool: 'ecrire-mieux', note: 'Pour accompagner la correction de la langue au quotidien.' },
      ],
      created_at: '2026-01-01T08:00:00Z', updated_at: '2026-01-01T08:00:00Z',
    },
    {
      slug: 'collection-brouillon', title: 'Collection en préparation', status: 'draft', kind: 'top', task: 'Préparer un cours', persona: null,
      description: 'Une collection encore en préparation, qui ne doit apparaître nulle part dans l’API.',
      items: [{ tool: 'quizzy', note: 'Une note de test pour une collection en brouillon.' }],
      created_at: '2026-01-01T08:00:00Z', updated_at: '2026-01-01T08:00:00Z',
    },
  ];
  return {
    vocabularies: FIXTURE_VOCABULARIES,
    rules: FIXTURE_RULES,
    searchVocabulary: {
      translations: [{ term: 'spelling', finds: ['orthographe'] }, { term: 'water', finds: ['eau'] }],
      filler: ['je cherche', 'je voudrais', 'un outil', 'tool', 'app'],
      freeWords: ['gratuit', 'gratuite', 'free'],
      alternatives: ['alternative', 'alternative a', 'comme', 'like'],
      about: ['sur', 'about'],
      classroom: ['eleves', 'classe', 'pupils'],
      englishSenses: [{ term: 'lecture', sense: 'cours magistral' }],
      schoolFacts: [
        { label: 'hors ligne', words: ['hors ligne', 'offline'], filter: { offline: true } },
        { label: 'sans compte élève', words: ['sans compte', 'no account'], filter: { pupil_account: ['none', 'class_code'] } },
        { label: 'logiciel libre', words: ['open source'], filter: { open_source: true } },
      ],
      pupils: ['eleves', 'mes', 'students', 'graders'],
      onTheirOwn: ['seuls', 'eux memes', 'themselves'],
      classAges: [{ age: 8, words: ['ce2', '3rd grade', '3rd graders'] }, { age: 10, words: ['cm2', '5e primaire'] }, { age: 12, words: ['5e'] }, { age: 14, words: ['3e'] }],
      english: {},
    },
    synonyms: {
      families: [['corriger', 'correction', 'correcteur']],
      equivalents: [['calcul mental', 'mental math'], ['évaluation formative', 'formative assessment']],
      expansions: [{ term: 'SVT', finds: ['cycle de l’eau', 'sciences de la vie'] }],
    },
    categories: [
      { slug: 'quiz', name: 'Quiz et interaction', description: 'Quiz et sondages pour la classe.' },
      { slug: 'ecriture', name: 'Écriture', description: 'Correcteurs et aides à la rédaction.' },
      { slug: 'sciences', name: 'Sciences', description: 'Mathématiques et sciences expérimentales.' },
      { slug: 'vide', name: 'Catégorie vide', description: 'Une catégorie sans outil publié.' },
    ],
    tools,
    collections,
  };
}

/** Writes `dataset` as a content folder (docs/content-format.md) and returns its path. */
export async function writeContent(dir: string, dataset: Dataset): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'tools'), { recursive: true });
  await mkdir(path.join(dir, 'collections'), { recursive: true });
  await writeFile(path.join(dir, 'categories.yaml'), YAML.stringify(dataset.categories));
  if (dataset.vocabularies.levels.length > 0) await writeFile(path.join(dir, 'levels.yaml'), YAML.stringify(dataset.vocabularies.levels));
  if (dataset.vocabularies.subjects.length > 0) await writeFile(path.join(dir, 'subjects.yaml'), YAML.stringify(dataset.vocabularies.subjects));
  const { families, equivalents, expansions } = dataset.synonyms;
  if (families.length + equivalents.length + expansions.length > 0) {
    const file = { families, equivalents, expansions: Object.fromEntries(expansions.map((e) => [e.term, e.finds])) };
    await writeFile(path.join(dir, 'synonyms.yaml'), YAML.stringify(file));
  }
  const { translations, filler, freeWords, alternatives, about, classroom, englishSenses, schoolFacts, exams = [], otherSenses = [] } = dataset.searchVocabulary;
  if (translations.length + filler.length + freeWords.length + alternatives.length + about.length + classroom.length + englishSenses.length + schoolFacts.length > 0) {
    const file = {
      translations: Object.fromEntries(translations.map((e) => [e.term, e.finds])), filler, free_words: freeWords, alternatives, about, classroom, english_senses: Object.fromEntries(englishSenses.map((e) => [e.term, e.sense])),
      school_facts: schoolFacts.map(({ label, words, filter }) => ({ label, words, ...filter })),
      pupils: dataset.searchVocabulary.pupils,
      ...(dataset.searchVocabulary.onTheirOwn?.length ? { on_their_own: dataset.searchVocabulary.onTheirOwn } : {}),
      class_ages: dataset.searchVocabulary.classAges,
      ...(exams.length > 0 ? { exams } : {}),
      ...(otherSenses.length > 0 ? { other_senses: otherSenses } : {}),
    };
    await writeFile(path.join(dir, 'search-vocabulary.yaml'), YAML.stringify(file));
  }
  if (Object.keys(dataset.searchVocabulary.english).length > 0) await writeFile(path.join(dir, 'search-english.yaml'), YAML.stringify(dataset.searchVocabulary.english));
  if (dataset.rules.length > 0) {
    await mkdir(path.join(dir, 'rules'), { recursive: true });
    for (const set of dataset.rules) await writeFile(path.join(dir, 'rules', `${set.country}.yaml`), YAML.stringify(set));
  }
  for (const t of dataset.tools) await writeFile(path.join(dir, 'tools', `${t.slug}.yaml`), YAML.stringify(asWritten(t)));
  for (const c of dataset.collections) await writeFile(path.join(dir, 'collections', `${c.slug}.yaml`), YAML.stringify(c));
  return dir;
}

/** A tool as its file has it: the link checker's fields only once it has run (as in content/). */
function asWritten(t: ToolRecord): Partial<ToolRecord> {
  const { links_checked_at, link_status, link_redirects, ...rest } = t;
  return {
    ...rest,
    ...(links_checked_at !== null ? { links_checked_at } : {}),
    ...(link_status !== null ? { link_status } : {}),
    ...(Object.keys(link_redirects).length > 0 ? { link_redirects } : {}),
  };
}

export async function tempDir(prefix = 'directory-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

/** The bundled directory (content/), for tests of what a deployment shows as it ships (the docs' examples). */
export async function bundledDataset(): Promise<Dataset> {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  if (!loaded.ok) throw new Error(`the bundled content does not load: ${loaded.problems.length} problems`);
  return loaded.dataset;
}
