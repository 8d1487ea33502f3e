/**
 * The filter panel of /outils: one select per filter of GET /tools, each choice with its
 * facet count (disjunctive, from the query room), and the active filters as removable labels.
 */
import type { ReadModel } from '../read-model/read-model.js';
import type { ToolList } from '../schemas/tools.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import { SCHOOL_VALUE_LABELS } from '../read-model/school-filters.js';
import { escapeHtml } from '../text/html.js';
import { ACCESS, DATA_LOCATION, GENERATIVE_AI, languageName, PLATFORMS, PRICING, PUPIL_ACCOUNT, PUPIL_USE, TRAINS } from './labels.js';

export type FilterValues = Record<string, string | undefined>;

interface Option {
  value: string;
  label: string;
  count: number | null;
  selected: boolean;
}

type Facets = Record<string, Array<{ value: string | boolean; count: number }> | undefined>;

/** A choice of the panel as the read model gives it: the value sent, its label, the facet that counts it. */
interface Choice {
  value: string;
  label: string;
  facet?: string;
  facetValue?: string | boolean;
}

/** A choice with its HTML drawn once per read model: what a page adds is `selected` and the count. */
interface DrawnChoice {
  /** `listOf(value)`: what the URL's value is compared with. */
  chosenAs: string;
  /** `          <option value="…"`, escaped. */
  open: string;
  /** `>label`, escaped. */
  label: string;
  facet: string | null;
  facetValue: string;
}

interface DrawnFilter {
  name: string;
  /** From `<fieldset>` to the « Tous » option; the choices of `language` come from its facet, per page. */
  head: string;
  choices: DrawnChoice[] | null;
  /** The facet that counts its choices, if any. */
  facet: string | null;
}

const AGES = Array.from({ length: 16 }, (_, k) => k + 3);
/**
 * What `for_pupils` keeps, said in the age's chip (« Âge : 10 ans, avec l'enseignant »); the
 * title keeps « élèves de 10 ans » (on a phone, a line more in the heading pushes the first
 * result off the first screen).
 */
const forPupilsShort = (v: string) => {
  const who = v.includes('teacher_led') ? 'avec l’enseignant' : listOf(v) === 'yes' ? 'sans accord à demander' : 'seuls';
  return v.includes('unknown') ? `${who}, ou à vérifier` : who;
};
const FILTER_END = '        </select>\n      </fieldset>\n';

/** The panel's filters, in their order, with the choices the read model and the labels give. */
function panelChoices(model: ReadModel): Array<[name: string, legend: string, choices: Choice[] | null, any?: string]> {
  const fromTable = (table: Readonly<Record<string, string>>, facet: string) => Object.entries(table).map(([v, label]) => ({ value: v, label, facet }));
  return [
    ['level', 'Niveau', model.school.levels.entries.map((e) => ({ value: e.slug, label: e.label, facet: 'level' }))],
    ['subject', 'Discipline', model.school.subjects.entries.map((e) => ({ value: e.slug, label: e.label, facet: 'subject' }))],
    ['category', 'Usage', model.categories.map((c) => ({ value: c.record.slug, label: c.record.name, facet: 'category' }))],
    ['age', 'Âge des élèves', AGES.map((a) => ({ value: String(a), label: `${a} ans` }))],
    // With an age: « Tous » is the age filter alone (on their own, with consent where needed).
    // « ou à vérifier »: also the tools whose answer at that age waits on a fact nobody has read
    // (`unknown`), as a need read in the search box keeps them (understood.ts).
    ['for_pupils', 'Les élèves de cet âge', [
      { value: 'yes', label: 'Seuls, sans accord à demander' },
      { value: 'with_consent,unknown', label: 'Seuls, ou à vérifier' },
      { value: 'with_consent,teacher_led', label: 'Seuls, ou avec leur enseignant' },
      { value: 'with_consent,teacher_led,unknown', label: 'Seuls ou avec leur enseignant, ou à vérifier' },
    ], 'Seuls, avec un accord si besoin'],
    ['pupil_use', 'Usage par les élèves', fromTable(PUPIL_USE, 'pupil_use')],
    ['pupil_account', 'Compte élève', [
      // One choice for « no account of their own »: none or a code given by the teacher.
      { value: 'none,class_code', label: 'Sans compte personnel (aucun, ou un code donné par l’enseignant)' },
      ...fromTable(PUPIL_ACCOUNT, 'pupil_account'),
    ]],
    ['generative_ai', 'IA générative', fromTable(GENERATIVE_AI, 'generative_ai')],
    ['trains_on_user_data', 'Entraînement sur les données', fromTable(TRAINS, 'trains_on_user_data')],
    ['data_location', 'Lieu des données', fromTable(DATA_LOCATION, 'data_location')],
    ['institutional_access', 'Accès GAR, ENT…', fromTable(ACCESS, 'institutional_access')],
    ['pricing', 'Prix', fromTable(PRICING, 'pricing')],
    ['offline', 'Hors connexion', [{ value: '1', label: 'Fonctionne hors connexion', facet: 'offline', facetValue: true }]],
    ['open_source', 'Logiciel libre', [{ value: '1', label: 'Logiciel libre', facet: 'open_source', facetValue: true }, { value: '0', label: 'Non libre', facet: 'open_source', facetValue: false }]],
    ['has_education_pricing', 'Offre éducation', [{ value: '1', label: 'Avec une offre éducation', facet: 'has_education_pricing', facetValue: true }]],
    ['platform', 'Plateforme', fromTable(PLATFORMS, 'platform')],
    // The interface languages the tools found have (its facet), drawn per page.
    ['language', 'Langue de l’interface', null],
  ];
}

const drawChoice = (c: Choice): DrawnChoice => ({
  chosenAs: listOf(c.value),
  open: `          <option value="${escapeHtml(c.value)}"`,
  label: `>${escapeHtml(c.label)}`,
  facet: c.facet ?? null,
  facetValue: String(c.facetValue ?? c.value),
});

interface DrawnPanel {
  filters: DrawnFilter[];
  /** Each interface language's choice, drawn on first use. */
  languages: Map<string, DrawnChoice>;
}

/** Per read model, the panel's filters drawn: a page of /outils drew its 130 choices through the template (docs/performance.md). */
const PANELS = new WeakMap<ReadModel, DrawnPanel>();

function drawnPanel(model: ReadModel): DrawnPanel {
  let drawn = PANELS.get(model);
  if (drawn === undefined) {
    const filters = panelChoices(model).map(([name, legend, choices, any = 'Tous']) => ({
      name,
      head: `\n      <fieldset>\n        <legend>${escapeHtml(legend)}</legend>\n        <label class="visually-hidden" for="f-${name}">${escapeHtml(legend)}</label>\n        <select id="f-${name}" name="${name}">\n          <option value="">${escapeHtml(any)}</option>\n`,
      choices: choices?.map(drawChoice) ?? null,
      facet: choices === null ? name : (choices.find((c) => c.facet !== undefined)?.facet ?? null),
    }));
    PANELS.set(model, (drawn = { filters, languages: new Map() }));
  }
  return drawn;
}

/**
 * The filter panel of /outils as HTML: one select per filter of GET /tools, each choice with
 * its facet count (disjunctive, from the query room) and selected when the URL asks for
 * exactly its values. An option stands for one value or several (`none,class_code`).
 */
export function panelHtml(model: ReadModel, values: FilterValues, meta: ToolList['meta']['facets']): string {
  const facets = meta as Facets | undefined;
  const { filters, languages } = drawnPanel(model);
  const language = (value: string) => {
    let c = languages.get(value);
    if (c === undefined) languages.set(value, (c = drawChoice({ value, label: languageName(value), facet: 'language' })));
    return c;
  };
  let html = '';
  for (const filter of filters) {
    const asked = values[filter.name];
    const chosenAs = asked === undefined ? null : listOf(asked);
    const choices = filter.choices ?? (facets?.language ?? []).map((v) => language(String(v.value)));
    // A choice with a facet says its count (0 when the facet does not list its value).
    const counts = new Map<string, number>();
    if (filter.facet !== null) for (const v of facets?.[filter.facet] ?? []) counts.set(String(v.value), v.count);
    html += filter.head;
    for (const c of choices) {
      const selected = chosenAs === c.chosenAs;
      let count = '';
      if (c.facet !== null) {
        const n = counts.get(c.facetValue) ?? 0;
        // A choice that would find nothing is not offered, unless the URL asks for it.
        if (n === 0 && !selected) continue;
        count = ` (${n})`;
      }
      html += `${c.open}${selected ? ' selected' : ''}${c.label}${count}</option>\n`;
    }
    html += FILTER_END;
  }
  return html;
}

/** The orders a list can take (GET /tools `sort`), as the form offers them. */
export function sortChoices(values: FilterValues): Option[] {
  const choices = [
    { value: '', label: values.q ? 'Pertinence' : 'Nom' },
    ...(values.q ? [{ value: 'name', label: 'Nom' }] : []),
    { value: '-updated_at', label: 'Mis à jour récemment' },
    { value: '-created_at', label: 'Ajoutés récemment' },
  ];
  return choices.map((c) => ({ value: c.value, label: c.label, count: null, selected: (values.sort ?? '') === c.value || (c.value === '' && !values.q && values.sort === 'name') }));
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
export function titleParts(values: FilterValues, active: ReturnType<typeof activeFilters>): string[] {
  return active.map(({ name, label, value }) => {
    if (name === 'q') return value.charAt(0).toUpperCase() + value.slice(1);
    if (name === 'level' || name === 'subject') return value;
    return TITLE[name]?.(values[name]!) ?? label;
  });
}

/** The active filters (the search included), each with a label that says its value. */
export function activeFilters(model: ReadModel, values: FilterValues): Array<{ name: string; label: string; value: string }> {
  const active: Array<{ name: string; label: string; value: string }> = [];
  for (const [name, legend, label] of ACTIVE) {
    const v = values[name];
    if (v === undefined) continue;
    let shown = name === 'q' ? v : v.split(',').map((part) => label(model, part.trim())).join(', ');
    // Who uses it refines the age: one chip says both (at 320 px a chip more is a line more).
    if (name === 'age' && values.for_pupils) shown += `, ${forPupilsShort(values.for_pupils)}`;
    active.push({ name, label: `${legend} : ${shown}`, value: shown });
  }
  return active;
}
