/**
 * Understood = applied (the catalogue, issue « Catalogue II », point 3): what the search reads
 * in a sentence typed on /outils — levels, subjects, the pupils' age, school facts, free of
 * charge — becomes the page's own filters, shown in the form, as removable chips and in the
 * title, and the search box keeps the other words. « quiz CM2 sans compte » is the page
 * « quiz » with level élémentaire and pupil_account none,class_code: the teacher sees what was
 * applied and changes it as any filter. The API keeps `q` as sent and says what it read in
 * `meta.query` (its constraints are filters there too); the page only moves them into view.
 */
import type { ReadModel } from '../read-model/read-model.js';
import { DEFAULT_AGE_ANSWERS } from '../read-model/school-filters.js';
import { textWithout } from '../search/analyzer.js';
import type { FilterValues } from './filters.js';

/** `values` with what its `q` reads as filters, `q` without their words; null when it reads none. */
export function appliedReading(model: ReadModel, values: FilterValues): FilterValues | null {
  const q = values.q;
  if (q === undefined || q === '') return null;
  // The sentence is read, not searched: the page searches what is left of it with its filters.
  const u = model.search.understand(q);
  // A subject's word finds the tools that have the subject or say the word (« AMC » in a tool's
  // name): it becomes the subject filter only when every tool found has one of its subjects,
  // so that the filter loses none; else it stays a word of the search. Only then is the
  // sentence searched as typed.
  const subjectSets = u.subjects.flatMap((s) => model.school.sets.subject.get(s) ?? []);
  const asSubject = subjectSets.length > 0 && model.search.search(q).set.andNot(subjectSets.reduce((a, b) => a.or(b))).isEmpty();
  // An exam, or a level only one school system names (« français 3e brevet », « secondaire 2
  // français »), stays in the search box: the search reads it as its level and ranks the work it
  // asks for (or the system's tools) first, as the API does for the same sentence. The level
  // filter takes the levels the rest of the sentence names (« 3e »).
  const exam = new Set(u.examWords);
  const words = [...u.constraintWords, ...u.levelWords.filter((k) => !exam.has(k)), ...(asSubject ? u.subjectWords : [])];
  const levels = exam.size === 0 ? u.levels : model.search.understand(textWithout(q, u.examWords)).levels;
  if (words.length === 0) return null;
  const out: FilterValues = { ...values };
  // A filter the URL already gives stays as given; levels and subjects add to the URL's.
  const add = (name: string, slugs: readonly string[]) => {
    if (slugs.length === 0) return;
    const given = (out[name] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
    out[name] = [...new Set([...given, ...slugs])].join(',');
  };
  const set = (name: string, value: string) => (out[name] === undefined || out[name] === '' ? (out[name] = value) : undefined);
  add('level', levels);
  if (asSubject) add('subject', u.subjects);
  for (const { filter } of u.facts) for (const [name, v] of Object.entries(filter)) set(name, Array.isArray(v) ? v.join(',') : String(v));
  if (u.free) set('pricing', 'free,freemium');
  if (u.age !== null) set('age', String(u.age));
  // The answers the reading keeps (understood.ts, `forPupils`): a class a teacher speaks of keeps
  // the tools the teacher leads too, and both keep those whose answer is not known yet.
  if (u.age !== null && u.forPupils !== null && u.forPupils.join() !== DEFAULT_AGE_ANSWERS.join() && !values.age) set('for_pupils', u.forPupils.filter((a) => a !== 'yes').join(','));
  const rest = textWithout(q, words);
  if (rest === '') delete out.q;
  else out.q = rest;
  return out;
}
