/**
 * What an import did, computed by comparing the stored dataset with the new one, so the
 * CLI can say what it added, changed and unpublished whatever the engine.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Dataset } from '../domain.js';

export interface KindReport {
  added: string[];
  changed: string[];
  /** Published before, draft (or removed) now. */
  unpublished: string[];
  /** Draft before, published now. */
  published: string[];
  removed: string[];
}

export interface ImportReport {
  revision: number;
  changed: boolean;
  categories: KindReport;
  tools: KindReport;
  collections: KindReport;
  /** Whether the search's synonyms changed. */
  synonyms: boolean;
}

interface Keyed {
  slug: string;
  status?: string;
}

function diffKind<T extends Keyed>(before: T[], after: T[]): KindReport {
  const old = new Map(before.map((r) => [r.slug, r]));
  const report: KindReport = { added: [], changed: [], unpublished: [], published: [], removed: [] };
  const seen = new Set<string>();
  for (const record of after) {
    seen.add(record.slug);
    const previous = old.get(record.slug);
    if (!previous) {
      report.added.push(record.slug);
      continue;
    }
    if (isDeepStrictEqual(previous, record)) continue;
    report.changed.push(record.slug);
    if (previous.status === 'published' && record.status === 'draft') report.unpublished.push(record.slug);
    if (previous.status === 'draft' && record.status === 'published') report.published.push(record.slug);
  }
  for (const record of before) {
    if (seen.has(record.slug)) continue;
    report.removed.push(record.slug);
    if (record.status === 'published') report.unpublished.push(record.slug);
  }
  return report;
}

export function diffDatasets(before: Dataset, after: Dataset): Omit<ImportReport, 'revision'> {
  const categories = diffKind(before.categories, after.categories);
  const tools = diffKind(before.tools, after.tools);
  const collections = diffKind(before.collections, after.collections);
  // Category order is part of the data too (it is the editorial order).
  const orderChanged = !isDeepStrictEqual(before.categories.map((c) => c.slug), after.categories.map((c) => c.slug));
  const synonyms = !isDeepStrictEqual(before.synonyms, after.synonyms);
  const vocabularies = !isDeepStrictEqual(before.vocabularies, after.vocabularies) || !isDeepStrictEqual(before.searchVocabulary, after.searchVocabulary);
  const changed =
    orderChanged ||
    synonyms ||
    vocabularies ||
    [categories, tools, collections].some((k) => k.added.length + k.changed.length + k.removed.length > 0);
  return { changed, categories, tools, collections, synonyms };
}
