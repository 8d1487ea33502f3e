/**
 * The filter panel of /outils: one select per filter of GET /tools, each choice with its
 * facet count (disjunctive, from the query room), and the active filters as removable labels.
 */
import type { ReadModel } from '../read-model/read-model.js';
import type { ToolList } from '../schemas/tools.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import { SCHOOL_VALUE_LABELS } from '../read-model/school-filters.js';
import { ACCESS, GENERATIVE_AI, PRICING, PUPIL_ACCOUNT } from './labels.js';

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
  const pick = (name: string, legend: string, options: Array<{ value: string; label: string; facet?: string; facetValue?: string | boolean }>): Filter => ({
    name,
    legend,
    options: options.map((o) => ({
      value: o.value,
      label: o.label,
      count: o.facet ? count(o.facet, o.facetValue ?? o.value) : null,
      selected: values[name] === o.value,
    })),
  });
  return [
    pick('level', 'Niveau', model.school.levels.entries.map((e) => ({ value: e.slug, label: e.label, facet: 'level' }))),
    pick('subject', 'Discipline', model.school.subjects.entries.map((e) => ({ value: e.slug, label: e.label, facet: 'subject' }))),
    pick('category', 'Usage', model.categories.map((c) => ({ value: c.record.slug, label: c.record.name, facet: 'category' }))),
    pick('age', 'Âge des élèves', AGES.map((a) => ({ value: String(a), label: `${a} ans` }))),
    pick('pupil_account', 'Compte élève', Object.entries(PUPIL_ACCOUNT).map(([v, label]) => ({ value: v, label, facet: 'pupil_account' }))),
    pick('generative_ai', 'IA générative', Object.entries(GENERATIVE_AI).map(([v, label]) => ({ value: v, label, facet: 'generative_ai' }))),
    pick('institutional_access', 'Accès GAR, ENT…', Object.entries(ACCESS).map(([v, label]) => ({ value: v, label, facet: 'institutional_access' }))),
    pick('pricing', 'Prix', Object.entries(PRICING).map(([v, label]) => ({ value: v, label, facet: 'pricing' }))),
    pick('offline', 'Hors connexion', [{ value: '1', label: 'Fonctionne hors connexion', facet: 'offline', facetValue: true }]),
    pick('open_source', 'Logiciel libre', [{ value: '1', label: 'Logiciel libre', facet: 'open_source', facetValue: true }, { value: '0', label: 'Non libre', facet: 'open_source', facetValue: false }]),
    pick('has_education_pricing', 'Offre éducation', [{ value: '1', label: 'Avec une offre éducation', facet: 'has_education_pricing', facetValue: true }]),
  ];
}

const LEGENDS: Record<string, string> = {
  q: 'Recherche', level: 'Niveau', subject: 'Discipline', category: 'Usage', age: 'Âge', pupil_account: 'Compte élève', generative_ai: 'IA générative',
  institutional_access: 'Accès', pricing: 'Prix', offline: 'Hors connexion', open_source: 'Logiciel libre', has_education_pricing: 'Offre éducation',
};

/** The active filters (the search included), each with a label that says its value. */
export function activeFilters(model: ReadModel, values: FilterValues): Array<{ name: string; label: string }> {
  const vocabLabel = (index: VocabularyIndex, v: string) => v.split(',').map((s) => index.entries[index.position.get(s.trim()) ?? -1]?.label ?? s).join(', ');
  return Object.keys(LEGENDS).flatMap((name) => {
    const v = values[name];
    if (v === undefined) return [];
    const shown =
      name === 'level' ? vocabLabel(model.school.levels, v)
        : name === 'subject' ? vocabLabel(model.school.subjects, v)
          : name === 'category' ? model.categories[model.categoryIndex.get(v) ?? -1]?.record.name ?? v
            : name === 'age' ? `${v} ans`
              : name === 'pricing' ? PRICING[v] ?? v
                : ['offline', 'open_source', 'has_education_pricing'].includes(name) ? (v === '1' || v === 'true' ? 'oui' : 'non')
                  : SCHOOL_VALUE_LABELS[v] ?? v;
    return [{ name, label: `${LEGENDS[name]} : ${shown}` }];
  });
}
