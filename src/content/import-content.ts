/** Content folder → store, all or nothing. Shared by the import CLI and the first start. */
import type { DirectoryStore } from '../store/directory-store.js';
import type { ImportReport, KindReport } from '../store/import-report.js';
import { formatProblem, loadContent, type ContentProblem } from './load-content.js';

export type ImportOutcome =
  | { ok: true; report: ImportReport | null; files: number }
  | { ok: false; problems: ContentProblem[] };

/** Validates `dir`; unless `dryRun`, replaces the store's dataset with it in one transaction. */
export async function importContent(store: DirectoryStore, dir: string, dryRun = false): Promise<ImportOutcome> {
  const loaded = await loadContent(dir);
  if (!loaded.ok) return loaded;
  if (dryRun) return { ok: true, report: null, files: loaded.files };
  return { ok: true, report: await store.replaceDataset(loaded.dataset), files: loaded.files };
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
