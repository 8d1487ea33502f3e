/** Content folder → store, all or nothing. Shared by the import CLI and the first start. */
import type { DirectoryStore } from '../store/directory-store.js';
import type { ImportReport, KindReport } from '../store/import-report.js';
import { formatProblem, type ContentProblem } from './content-problems.js';
import { loadContent } from './load-content.js';

export type ImportOutcome =
  /** `notes`: what was cleaned on the way in (bidirectional controls removed), by file, record and field. */
  | { ok: true; report: ImportReport | null; files: number; notes: ContentProblem[] }
  | { ok: false; problems: ContentProblem[] };

/** Validates `dir`; unless `dryRun`, replaces the store's dataset with it in one transaction. */
export async function importContent(store: DirectoryStore, dir: string, dryRun = false): Promise<ImportOutcome> {
  const loaded = await loadContent(dir);
  if (!loaded.ok) return loaded;
  if (dryRun) return { ok: true, report: null, files: loaded.files, notes: loaded.notes };
  return { ok: true, report: await store.replaceDataset(loaded.dataset), files: loaded.files, notes: loaded.notes };
}

/** What the import cleaned on its own, one line per field, or '' when nothing. */
export function describeNotes(notes: ContentProblem[]): string {
  if (notes.length === 0) return '';
  return [
    `Removed bidirectional control characters (${notes.length} field${notes.length === 1 ? '' : 's'}); they reorder how text is displayed and the content has no use for them:`,
    ...notes.map((n) => `  - ${formatProblem(n)}`),
  ].join('\n');
}

export function describeProblems(problems: ContentProblem[]): string {
  return problems.map((p) => `  ✗ ${formatProblem(p)}`).join('\n');
}

export function describeReport(report: ImportReport): string {
  if (!report.changed) return `Nothing changed: the database already holds this content (revision ${report.revision}).`;
  const lines = [`Imported revision ${report.revision}.`];
  const kinds: Array<[string, KindReport]> = [['categories', report.categories], ['tools', report.tools], ['collections', report.collections]];
  for (const [name, k] of kinds) {
    const parts: Array<[string, string[]]> = [['added', k.added], ['changed', k.changed], ['unpublished', k.unpublished], ['published', k.published], ['removed', k.removed]];
    const said = parts.filter(([, list]) => list.length > 0);
    if (said.length === 0) continue;
    lines.push(`  ${name}: ${said.map(([label, list]) => `${list.length} ${label}`).join(', ')}`);
    for (const [label, list] of said) {
      const shown = list.slice(0, 20).join(', ');
      lines.push(`    ${label}: ${shown}${list.length > 20 ? `, … (${list.length - 20} more)` : ''}`);
    }
  }
  if (report.synonyms) lines.push('  synonyms: changed');
  return lines.join('\n');
}
