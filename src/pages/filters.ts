/**
 * The filter panel of /outils: one select per filter of GET /tools, each choice with its
 * facet count (disjunctive, from the query room), and the active filters as removable labels.
 */
import type { ReadModel } from '../read-model/read-model.js';
import type { ToolList } from '../schemas/tools.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import { SCHOOL_VALUE_LABELS } from '../read-model/school-filters.js';
import { ACCESS, DATA_LOCATION, GENERATIVE_AI, languageName, PLATFORMS, PRICING, PUPIL_ACCOUNT, PUPIL_USE, TRAINS } from './labels.js';

export type FilterValues = Record<string, string | undefined>;

interface Option {
  value: string;
  label: string;
  count: number | null;
  selected: boolean;
}

interface Filter {
  name: string;
  legend: string;
  options: Option[];
}

type Facets = Record<string, Array<{ value: string | boolean; count: number }> | undefined>;

const AGES = Array.from({ length: 16 }, (_, k) => k + 3);

export function toolsFilters(model: ReadModel, values: FilterValues, meta: ToolList['meta']['facets']): Filter[] {
  const facets = meta as Facets | undefined;
  const count = (facet: string, value: string | boolean) => facets?.[facet]?.find((v) => v.value === value)?.count ?? 0;
  const listOf = (text: string) => [...new Set(text.split(',').map((v) => v.trim()).filter((v) => v !== ''))].sort().join(',');
  // An option stands for one value or several (`none,class_code`): it is chosen when the URL asks for exactly those.
  const chosen = (name: string, value: string) => values[name] !== undefined && listOf(values[name]!) === listOf(value);
  const pick = (name: string, legend: string, options: Array<{ value: string; label: string; facet?: string; facetValue?: string | boolean }>): Filter => ({
    name,
    legend,
    options: options.map((o) => ({
      value: o.value,
      label: o.label,
      count: o.facet ? count(o.facet, o.facetValue ?? o.value) : null,
      selected: chosen(name, o.value),
    })),
  });
  const fromTable = (table: Readonly<Record<string, string>>, facet: string) => Object.entries(table).map(([v, label]) => ({ value: v, label, facet }));
  const languages = (facets?.language ?? []).map((v) => ({ value: String(v.value), label: languageName(String(v.value)), facet: 'language' }));
  return [
    pick('level', 'Niveau', model.school.levels.entries.map((e) => ({ value: e.slug, label: e.label, facet: 'level' }))),
    pick('subject', 'Discipline', model.school.subjects.entries.map((e) => ({ value: e.slug, label: e.label, facet: 'subject' }))),
    pick('category', 'Usage', model.categories.map((c) => ({ value: c.record.slug, label: c.record.name, facet: 'category' }))),
    pick('age', 'Âge des élèves', AGES.map((a) => ({ value: String(a), label: `${a} ans` }))),
    pick('pupil_use', 'Usage par les élèves', fromTable(PUPIL_USE, 'pupil_use')),
    pick('pupil_account', 'Compte élève', [
      // One choice for « no account of their own »: none or a code given by the teacher.
      { value: 'none,class_code', label: 'Sans compte personnel (aucun, ou un code donné par l’enseignant)' },
      ...fromTable(PUPIL_ACCOUNT, 'pupil_account'),
    ]),
    pick('generative_ai', 'IA générative', fromTable(GENERATIVE_AI, 'generative_ai')),
    pick('trains_on_user_data', 'Entraînement sur les données', fromTable(TRAINS, 'trains_on_user_data')),
    pick('data_location', 'Lieu des données', fromTable(DATA_LOCATION, 'data_location')),
    pick('institutional_access', 'Accès GAR, ENT…', fromTable(ACCESS, 'institutional_access')),
    pick('pricing', 'Prix', fromTable(PRICING, 'pricing')),
    pick('offline', 'Hors connexion', [{ value: '1', label: 'Fonctionne hors connexion', facet: 'offline', facetValue: true }]),
    pick('open_source', 'Logiciel libre', [{ value: '1', label: 'Logiciel libre', facet: 'open_source', facetValue: true }, { value: '0', label: 'Non libre', facet: 'open_source', facetValue: false }]),
    pick('has_education_pricing', 'Offre éducation', [{ value: '1', label: 'Avec une offre éducation', facet: 'has_education_pricing', facetValue: true }]),
    pick('platform', 'Plateforme', fromTable(PLATFORMS, 'platform')),
    pick('language', 'Langue de l’interface', languages),
  ];
}

/** The orders a list can take (GET /tools `sort`), as the form offers them. */
export function sortChoices(values: FilterValues): Option[] {
  const choices = [
    { value: '', label: values.q ? 'Pertinence' : 'Nom' },
    ...(values.q ? [{ value: 'name', label: 'Nom' }] : []),
    { value: '-updated_at', label: 'Mis à jour récemment' },
    { value: '-created_at', label: 'Ajoutés récemment' },
  ];
  return choices.map((c) => ({ ...c, count: null, selected: (values.sort ?? '') === c.value || (c.value === '' && !values.q && values.sort === 'name') }));
}

const yesNo = (v: string) => (v === '1' || v === 'true' ? 'oui' : v === '0' || v === 'false' ? 'non' : v);

/**
 * Every filter a list applies, with the words its chip says: each name is the API parameter,
 * each value read through a table without a prototype (a value that is no known one reads as
 * typed). The search (`q`) is one of them.
 */
const ACTIVE: ReadonlyArray<[name: string, legend: string, label: (model: ReadModel, value: string) => string]> = [
  ['q', 'Recherche', (_m, v) => v],
  ['level', 'Niveau', (m, v) => vocabularyLabel(m.school.levels, v)],
  ['subject', 'Discipline', (m, v) => vocabularyLabel(m.school.subjects, v)],
  ['include_transversal', 'Outils toutes disciplines', (_m, v) => yesNo(v)],
  ['category', 'Usage', (m, v) => m.categories[m.categoryIndex.get(v) ?? -1]?.record.name ?? v],
  ['age', 'Âge', (_m, v) => `${v} ans`],
  ['pupil_use', 'Usage par les élèves', (_m, v) => SCHOOL_VALUE_LABELS[v] ?? v],
  ['pupil_account', 'Compte élève', (_m, v) => SCHOOL_VALUE_LABELS[v] ?? v],
  ['generative_ai', 'IA générative', (_m, v) => SCHOOL_VALUE_LABELS[v] ?? v],
  ['trains_on_user_data', 'Entraînement sur les données', (_m, v) => SCHOOL_VALUE_LABELS[v] ?? v],
  ['data_location', 'Données', (_m, v) => SCHOOL_VALUE_LABELS[v] ?? v],
  ['institutional_access', 'Accès', (_m, v) => SCHOOL_VALUE_LABELS[v] ?? v],
  ['pricing', 'Prix', (_m, v) => PRICING[v.toLowerCase()] ?? v],
  ['offline', 'Hors connexion', (_m, v) => yesNo(v)],
  ['open_source', 'Logiciel libre', (_m, v) => yesNo(v)],
  ['has_education_pricing', 'Offre éducation', (_m, v) => yesNo(v)],
  ['platform', 'Plateforme', (_m, v) => PLATFORMS[v] ?? v],
  ['language', 'Langue', (_m, v) => languageName(v)],
  ['tag', 'Étiquette', (_m, v) => v],
];

function vocabularyLabel(index: VocabularyIndex, slug: string): string {
  const at = index.position.get(slug);
  return at === undefined ? slug : index.entries[at]!.label;
}

/** How a page's title says some filters' values (« sans compte personnel », « élèves de 12 ans »); the others say `legend : value`. */
const TITLE: Readonly<Record<string, (value: string) => string | undefined>> = {
  pupil_account: (v) => (listOf(v) === 'class_code,none' ? 'sans compte personnel' : undefined),
  age: (v) => `élèves de ${v} ans`,
  pricing: (v) => (listOf(v) === 'free,freemium' ? 'gratuit ou freemium' : listOf(v) === 'free' ? 'gratuit' : undefined),
  offline: (v) => (v === 'true' || v === '1' ? 'hors connexion' : undefined),
  open_source: (v) => (v === 'true' || v === '1' ? 'logiciel libre' : undefined),
  generative_ai: (v) => (listOf(v) === 'none' ? 'sans IA générative' : undefined),
};

function listOf(text: string): string {
  return [...new Set(text.split(',').map((v) => v.trim()).filter((v) => v !== ''))].sort().join(',');
}

/** What a list shows, for its title: the search's words (capitalised), then each filter's value. */
export function titleParts(model: ReadModel, values: FilterValues): string[] {
  return activeFilters(model, values).map(({ name, label, value }) => {
    if (name === 'q') return value.charAt(0).toUpperCase() + value.slice(1);
    if (name === 'level' || name === 'subject') return value;
    return TITLE[name]?.(values[name]!) ?? label;
  });
}

/** The active filters (the search included), each with a label that says its value. */
export function activeFilters(model: ReadModel, values: FilterValues): Array<{ name: string; label: string; value: string }> {
  return ACTIVE.flatMap(([name, legend, label]) => {
    const v = values[name];
    if (v === undefined) return [];
    const shown = name === 'q' ? v : v.split(',').map((part) => label(model, part.trim())).join(', ');
    return [{ name, label: `${legend} : ${shown}`, value: shown }];
  });
}
