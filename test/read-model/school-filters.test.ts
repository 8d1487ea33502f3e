/**
 * The school filters and facets (bitsets) against a brute-force filter over every tool of
 * the bundled directory, for random combinations given as query strings (aliases included),
 * so parsing, alias resolution, filtering and counting are checked together.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import fc from 'fast-check';
import { loadContent } from '../../src/content/load-content.js';
import { DATA_LOCATIONS, GENERATIVE_AI, INSTITUTIONAL_ACCESS, PLATFORMS, PUPIL_ACCOUNTS, PUPIL_USES, TRAINS_ON_USER_DATA, type ToolRecord } from '../../src/domain.js';
import { parseToolsQuery } from '../../src/directory/tools-query.js';
import { facetCounts } from '../../src/read-model/facets.js';
import { listTools, searchMatches } from '../../src/read-model/list-tools.js';
import { buildReadModel, type ReadModel } from '../../src/read-model/read-model.js';
import { SCHOOL_ENUMS, SCHOOL_FILTERS } from '../../src/read-model/school-filters.js';
import { resolveTerm } from '../../src/school/vocabulary.js';
import { bandAt } from '../../src/school/for-pupils.js';

let model: ReadModel;
before(async () => {
  const loaded = await loadContent(path.resolve(import.meta.dirname, '../../content'));
  assert.ok(loaded.ok);
  model = buildReadModel({ revision: 1, dataset: loaded.dataset, changes: [] });
});

const ENUMS: Record<string, readonly string[]> = { pupil_use: PUPIL_USES, pupil_account: PUPIL_ACCOUNTS, generative_ai: GENERATIVE_AI, trains_on_user_data: TRAINS_ON_USER_DATA, data_location: DATA_LOCATIONS, institutional_access: INSTITUTIONAL_ACCESS };

/** Whether a tool's fact (a value or a list) holds any of `wanted`; a null fact holds none. */
function holds(value: unknown, wanted: readonly string[]): boolean {
  if (value === null || value === undefined) return false;
  const values = Array.isArray(value) ? value.map(String) : [String(value)];
  return values.some((v) => wanted.includes(v));
}

test('property › every school filter equals a brute-force filter over all tools, facets included', () => {
  const levelTerms = [...model.school.levels.terms.keys()];
  const subjectTerms = [...model.school.subjects.terms.keys()];
  const raw = fc.record(
    {
      level: fc.subarray(levelTerms, { minLength: 1, maxLength: 3 }).map((a) => a.join(',')),
      subject: fc.subarray(subjectTerms, { minLength: 1, maxLength: 3 }).map((a) => a.join(',')),
      include_transversal: fc.constantFrom('1', '0'),
      age: fc.integer({ min: 3, max: 99 }).map(String),
      ...Object.fromEntries(Object.entries(ENUMS).map(([k, v]) => [k, fc.subarray([...v], { minLength: 1, maxLength: 2 }).map((a) => a.join(','))])),
      offline: fc.constantFrom('1', '0', 'true', 'false'),
      open_source: fc.constantFrom('1', '0'),
      q: fc.constantFrom('quiz', 'ia', 'carte', 'video'),
      platform: fc.subarray([...PLATFORMS], { minLength: 1, maxLength: 2 }).map((a) => a.join(',')),
      language: fc.constantFrom('fr', 'en', 'fr,de', 'ar'),
      tag: fc.constantFrom('quiz', 'open-source', 'rgpd,quiz', 'ia-generative', 'inconnu'),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(raw, (params) => {
      const query = parseToolsQuery(params as Record<string, string>, model.school);
      const found = searchMatches(model, query);
      const levels = params.level ? params.level.split(',').flatMap((t) => resolveTerm(model.school.levels, t) ?? []) : null;
      let subjects = params.subject ? params.subject.split(',').flatMap((t) => resolveTerm(model.school.subjects, t) ?? []) : null;
      if (subjects && params.include_transversal === '1') subjects = [...subjects, 'transversal'];
      const flag = (v: string | undefined) => (v === undefined ? null : v === '1' || v === 'true');
      const keep = (t: ToolRecord, i: number, ignore: string | null) => {
        const s = t.school;
        if (found !== null && !found.has(i)) return false;
        if (ignore !== 'level' && levels && !holds(s.levels, levels)) return false;
        if (ignore !== 'subject' && subjects && !holds(s.subjects, subjects)) return false;
        for (const [name, values] of Object.entries(ENUMS)) {
          const text = (params as Record<string, string | undefined>)[name];
          if (ignore !== name && text !== undefined && !holds(s[name as keyof typeof s], text.split(',').filter((v) => values.includes(v)))) return false;
        }
        for (const name of ['offline', 'open_source'] as const) {
          const want = flag((params as Record<string, string | undefined>)[name]);
          if (ignore !== name && want !== null && s[name] !== want) return false;
        }
        for (const [name, list] of [['platform', t.platforms], ['language', t.languages], ['tag', t.tags]] as const) {
          const text = (params as Record<string, string | undefined>)[name];
          if (ignore !== name && text !== undefined && !holds(list, text.split(','))) return false;
        }
        // The age filter is the tool's for_pupils answer at that age (yes or with_consent): never a
        // teacher-only tool nor one whose minimum age is unknown or above it, and none the
        // framework keeps teacher-led (generative AI before its age).
        if (params.age !== undefined) {
          const age = Number(params.age);
          if (s.pupil_use === null || s.pupil_use === 'teacher_only' || s.min_age === null || s.min_age > age) return false;
          if (!['yes', 'with_consent'].includes(bandAt(model.forPupils[i]!, age).answer)) return false;
        }
        return true;
      };
      const expected = model.tools.flatMap((t, i) => (keep(t, i, null) ? [i] : []));
      const page = listTools(model, { ...query, page: 1, perPage: 1000, sort: 'name' });
      assert.deepEqual(page.items, expected);
      const facets = facetCounts(model, query, [...SCHOOL_FILTERS, 'platform', 'language', 'tag']);
      for (const [filter, list] of [['platform', (t: ToolRecord) => t.platforms], ['language', (t: ToolRecord) => t.languages], ['tag', (t: ToolRecord) => t.tags]] as const) {
        for (const v of facets[filter]!) assert.equal(v.count, model.tools.filter((t, i) => keep(t, i, filter) && list(t).includes(v.value)).length, `${filter}=${v.value}`);
      }
      for (const filter of SCHOOL_FILTERS) {
        for (const v of facets[filter]!) {
          const count = model.tools.filter((t, i) => keep(t, i, filter) && holds(filter === 'level' ? t.school.levels : filter === 'subject' ? t.school.subjects : t.school[filter as keyof typeof SCHOOL_ENUMS | 'offline' | 'open_source'], [String(v.value)])).length;
          assert.equal(v.count, count, `${filter}=${v.value}`);
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('age › never a teacher-only tool, nor one whose minimum age is unknown or above the age', () => {
  for (let age = 3; age <= 20; age++) {
    const query = parseToolsQuery({ age: String(age) }, model.school);
    const page = listTools(model, { ...query, perPage: 1000 });
    for (const i of page.items) {
      const s = model.tools[i]!.school;
      assert.notEqual(s.pupil_use, 'teacher_only');
      assert.notEqual(s.pupil_use, null);
      assert.ok(s.min_age !== null && s.min_age <= age, `${model.tools[i]!.slug} at ${age}`);
    }
  }
});
