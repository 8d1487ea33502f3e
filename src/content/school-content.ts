/**
 * What the import checks of the school facts beyond their schema (API.md, "School use"):
 * every level and subject is in its vocabulary (else the nearest valid value is named), every
 * fact drawn from terms or a catalogue names the page it comes from, and tags no longer
 * carry levels or subjects that now have a field of their own.
 */
import {
  unknownSchoolFacts, SOURCED_SCHOOL_FIELDS, type LevelEntry, type SchoolFacts, type SchoolVocabularies, type SourcedSchoolField,
  type SubjectEntry, type ToolRecord,
} from '../domain.js';
import { indexVocabulary, inVocabularyOrder, nearestSlug, resolveTerm, termKey, type VocabularyIndex } from '../school/vocabulary.js';
import type { ContentProblems } from './content-problems.js';

export const EMPTY_VOCABULARIES: SchoolVocabularies = Object.freeze({ levels: [], subjects: [] });

/** Checks a vocabulary file's entries beyond the schema: unique slugs, ages in order. */
export function checkVocabulary(file: string, entries: ReadonlyArray<LevelEntry | SubjectEntry>, problems: ContentProblems): void {
  const slugs = new Set<string>();
  entries.forEach((e, i) => {
    if (slugs.has(e.slug)) problems.add(file, e.slug, `[${i}].slug`, 'is used by another entry');
    slugs.add(e.slug);
    if ('ages' in e && e.ages.min > e.ages.max) problems.add(file, e.slug, `[${i}].ages`, `min (${e.ages.min}) is above max (${e.ages.max})`);
    const seen = new Set<string>();
    [...e.aliases, ...(('topics' in e ? e.topics : undefined) ?? [])].forEach((alias, j) => {
      const key = termKey(alias);
      if (seen.has(key)) problems.add(file, e.slug, `[${i}].aliases[${j}]`, `"${alias}" is listed twice`);
      seen.add(key);
    });
  });
  // An alias may name several entries, but never another entry's own slug: `college` must mean the level college.
  for (const e of entries) {
    for (const alias of e.aliases) {
      const key = termKey(alias).replaceAll(' ', '-');
      if (key !== e.slug && slugs.has(key)) problems.add(file, e.slug, 'aliases', `"${alias}" is the slug of another entry`);
    }
  }
}

/** Fills in and checks a tool's school facts; the tool's record is updated in place (levels ordered). */
export function checkSchoolFacts(
  record: ToolRecord & { school?: SchoolFacts },
  vocabularies: { levels: VocabularyIndex; subjects: VocabularyIndex },
  file: string,
  problems: ContentProblems,
  lineOf: (path: ReadonlyArray<string | number>) => number | undefined,
): void {
  if (record.school === undefined) {
    record.school = unknownSchoolFacts();
    return;
  }
  const school = record.school;
  const slug = record.slug;
  const vocabulary = (field: 'levels' | 'subjects', index: VocabularyIndex, fileName: string) => {
    const values = school[field];
    if (values === null) return;
    values.forEach((value, i) => {
      if (!index.position.has(value)) {
        const resolved = resolveTerm(index, value);
        const hint = resolved ? `; it stands for ${resolved.join(', ')}` : (() => {
          const near = nearestSlug(index, value);
          return near ? `; did you mean "${near}"?` : '';
        })();
        problems.add(file, slug, `school.${field}[${i}]`, `"${value}" is not a slug of ${fileName}${hint}`, lineOf(['school', field, i]));
      }
    });
    if (new Set(values).size !== values.length) problems.add(file, slug, `school.${field}`, 'lists a value twice', lineOf(['school', field]));
    school[field] = inVocabularyOrder(index, values);
  };
  vocabulary('levels', vocabularies.levels, 'content/levels.yaml');
  vocabulary('subjects', vocabularies.subjects, 'content/subjects.yaml');
  if (school.institutional_access && new Set(school.institutional_access).size !== school.institutional_access.length) {
    problems.add(file, slug, 'school.institutional_access', 'lists a value twice', lineOf(['school', 'institutional_access']));
  }
  if (school.pupil_use === 'teacher_only' && school.pupil_account !== null) {
    problems.add(file, slug, 'school.pupil_account', 'must be null when pupil_use is teacher_only (pupils do not use it)', lineOf(['school', 'pupil_account']));
  }
  if (school.min_age !== null && school.consent_age !== null && school.consent_age < school.min_age) {
    problems.add(file, slug, 'school.consent_age', `(${school.consent_age}) is below min_age (${school.min_age}): below min_age nobody may use it, with consent or not; equal to min_age when the terms ask for no consent`, lineOf(['school', 'consent_age']));
  }
  if (school.generative_ai === 'none' && school.trains_on_user_data !== null && school.trains_on_user_data !== 'not_applicable') {
    problems.add(file, slug, 'school.trains_on_user_data', 'a tool without generative AI is "not_applicable" here, or null', lineOf(['school', 'trains_on_user_data']));
  }

  // Every fact drawn from terms or a catalogue names its page; a page names only facts that are stated.
  const sourced = new Set<SourcedSchoolField>();
  school.sources.forEach((source, i) => {
    const fields = new Set(source.fields);
    if (fields.size !== source.fields.length) problems.add(file, slug, `school.sources[${i}].fields`, 'lists a field twice', lineOf(['school', 'sources', i, 'fields']));
    for (const field of fields) {
      sourced.add(field);
      if (!needsSource(school, field)) {
        problems.add(file, slug, `school.sources[${i}].fields`, `names ${field}, which is ${JSON.stringify(school[field])}: a source backs a stated fact`, lineOf(['school', 'sources', i, 'fields']));
      }
    }
    const dates = (['page_date', 'checked_at'] as const).map((key) => {
      const value = source[key];
      if (value === null) return null;
      const time = Date.parse(`${value}T00:00:00Z`);
      const at = lineOf(['school', 'sources', i, key]);
      if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
        problems.add(file, slug, `school.sources[${i}].${key}`, `is not a real date (got "${value}")`, at);
        return null;
      }
      if (time > Date.now()) {
        const what = key === 'checked_at' ? 'it is the day someone read the page' : 'it is the date the page gives for itself';
        problems.add(file, slug, `school.sources[${i}].${key}`, `is in the future (got "${value}"): ${what}`, at);
        return null;
      }
      return time;
    });
    if (dates[0] != null && dates[1] != null && dates[0] > dates[1]) {
      problems.add(file, slug, `school.sources[${i}].page_date`, `(${source.page_date}) is after checked_at (${source.checked_at}): a page cannot be read before the date it gives`, lineOf(['school', 'sources', i, 'page_date']));
    }
  });
  for (const field of SOURCED_SCHOOL_FIELDS) {
    if (needsSource(school, field) && !sourced.has(field)) {
      problems.add(file, slug, `school.${field}`, `is ${JSON.stringify(school[field])} but no entry of school.sources names the page that states it; give the page, or null`, lineOf(['school', field]));
    }
  }
}

/**
 * Whether a value is a fact taken from a page. What follows from what the tool is needs no
 * page: `not_applicable` (no generative AI), `device` (nothing leaves the machine), `[]`.
 */
function needsSource(school: SchoolFacts, field: SourcedSchoolField): boolean {
  const value = school[field];
  if (value === null) return false;
  if (field === 'trains_on_user_data') return value !== 'not_applicable';
  if (field === 'data_location') return value !== 'device';
  if (field === 'institutional_access') return (value as unknown[]).length > 0;
  return true;
}

/**
 * Tags that name a level (`college`, `primaire`, `superieur`, `secondaire`…) or a subject
 * by its slug (`mathematiques`, `langues-vivantes`) say what `school.levels` and
 * `school.subjects` now say: they belong there.
 */
export function checkTags(record: ToolRecord, vocabularies: { levels: VocabularyIndex; subjects: VocabularyIndex }, file: string, problems: ContentProblems, lineOf: (path: ReadonlyArray<string | number>) => number | undefined): void {
  record.tags.forEach((tag, i) => {
    const levels = resolveTerm(vocabularies.levels, tag);
    if (levels) {
      problems.add(file, record.slug, `tags[${i}]`, `"${tag}" is a level: put ${levels.join(', ')} in school.levels instead`, lineOf(['tags', i]));
    } else if (vocabularies.subjects.position.has(tag)) {
      problems.add(file, record.slug, `tags[${i}]`, `"${tag}" is a subject: put it in school.subjects instead`, lineOf(['tags', i]));
    }
  });
}

export function indexVocabularies(v: SchoolVocabularies): { levels: VocabularyIndex<LevelEntry>; subjects: VocabularyIndex } {
  return { levels: indexVocabulary(v.levels), subjects: indexVocabulary(v.subjects) };
}
