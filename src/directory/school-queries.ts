/**
 * GET /levels and GET /subjects (and MCP list_levels, list_subjects): the school vocabularies
 * with their published-tool counts; GET /rules (MCP list_rules): the rules of `for_pupils`.
 */
import type { ReadModel } from '../read-model/read-model.js';
import type { LevelList, RuleList, SubjectList } from '../schemas/school.js';
import type { License } from './representations.js';

const countOf = (model: ReadModel, filter: 'level' | 'subject', slug: string) => model.school.sets[filter].get(slug)?.count() ?? 0;

export function levelListBody(model: ReadModel, license: License): LevelList {
  return {
    data: model.school.levels.entries.map((e) => ({
      slug: e.slug, label: e.label, aliases: e.aliases, tool_count: countOf(model, 'level', e.slug), ages: e.ages, isced: e.isced,
    })),
    meta: { license },
  };
}

export function subjectListBody(model: ReadModel, license: License): SubjectList {
  return {
    data: model.school.subjects.entries.map((e) => ({ slug: e.slug, label: e.label, aliases: [...e.aliases, ...(e.topics ?? [])], tool_count: countOf(model, 'subject', e.slug) })),
    meta: { license },
  };
}

/** Every country's rules, the default first, each rule with its explanation and source. */
export function ruleListBody(model: ReadModel, license: License): RuleList {
  const sets = [...model.rules].sort((a, b) => Number(b.default) - Number(a.default) || a.country.localeCompare(b.country));
  return { data: sets.map((set) => ({ ...set, ages: { ...set.ages }, rules: set.rules.map((r) => ({ ...r })) })), meta: { license } };
}
