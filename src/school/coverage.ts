/**
 * How much of the directory's school facts are known: the figures a publisher reads to see
 * what is missing (npm run content:check), and the targets the bundled content must reach.
 */
import type { SchoolFacts, ToolRecord } from '../domain.js';

export interface CoverageLine {
  field: string;
  /** What the figure is over, in words (`published tools`, `published tools pupils use`…). */
  over: string;
  known: number;
  total: number;
  /** The share the bundled content must reach (or, with `count`, the number), or null when there is no target. */
  target: number | null;
  /** The target is a number of tools, not a share. */
  count?: boolean;
}

type Fact = keyof Omit<SchoolFacts, 'sources'>;

/** Pupils use it: its `pupil_use` is known and is not `teacher_only`. */
export const pupilsUse = (t: ToolRecord) => t.school.pupil_use !== null && t.school.pupil_use !== 'teacher_only';
const generative = (t: ToolRecord) => t.school.generative_ai === 'feature' || t.school.generative_ai === 'core';
const ownAccounts = (t: ToolRecord) => t.school.pupil_account === 'personal' || t.school.pupil_account === 'teacher_created';
const known = (field: Fact) => (t: ToolRecord) => t.school[field] !== null;

interface Line {
  field: string;
  over: string;
  /** The tools the figure is over. */
  among: (t: ToolRecord) => boolean;
  /** Those of them that count as known. */
  counts: (t: ToolRecord) => boolean;
  target: number | null;
  count?: boolean;
}

const ALL = () => true;
const fact = (field: Fact, target: number | null, over: 'published' | 'pupil' = 'published'): Line => ({
  field, over: over === 'pupil' ? 'published tools pupils use' : 'published tools', among: over === 'pupil' ? pupilsUse : ALL, counts: known(field), target,
});

/** The figures content:check prints, and the targets issue 43 set for the bundled content. */
const LINES: Line[] = [
  fact('levels', 0.95),
  fact('subjects', 0.95),
  fact('pupil_use', 0.95),
  fact('generative_ai', 0.97),
  fact('open_source', 0.95),
  fact('pupil_account', 0.8),
  fact('offline', 0.8),
  fact('min_age', 0.6, 'pupil'),
  { field: 'consent_age', over: 'tools whose min_age is known', among: (t) => t.school.min_age !== null, counts: known('consent_age'), target: 1 },
  { field: 'trains_on_user_data', over: 'published tools with generative AI', among: generative, counts: known('trains_on_user_data'), target: 0.9 },
  { field: 'data_location', over: 'tools with personal or teacher-created pupil accounts', among: ownAccounts, counts: known('data_location'), target: 0.3 },
  fact('institutional_access', 0.8),
  { field: 'institutional_access gar', over: 'tools (a number)', among: ALL, counts: (t) => t.school.institutional_access?.includes('gar') ?? false, target: 20, count: true },
  { field: 'institutional_access ent', over: 'tools (a number)', among: ALL, counts: (t) => t.school.institutional_access?.includes('ent') ?? false, target: 10, count: true },
  fact('accessibility_url', null),
];

/** The figures of the published tools; `sources checked_at` counts the pages someone has read. */
export function schoolCoverage(tools: readonly ToolRecord[]): CoverageLine[] {
  const published = tools.filter((t) => t.status === 'published');
  const lines: CoverageLine[] = LINES.map(({ field, over, among, counts, target, count }) => {
    const set = published.filter(among);
    return { field, over, known: set.filter(counts).length, total: set.length, target, ...(count ? { count } : {}) };
  });
  const sources = published.flatMap((t) => t.school.sources);
  lines.push({ field: 'sources checked_at', over: 'sources of published tools', known: sources.filter((s) => s.checked_at !== null).length, total: sources.length, target: 0.8 });
  return lines;
}

export const lineMet = (l: CoverageLine) => l.target === null || (l.count ? l.known >= l.target : l.total === 0 || l.known / l.total >= l.target);

export function formatCoverage(lines: readonly CoverageLine[]): string {
  const rows = lines.map((l) => {
    const share = l.total === 0 ? 1 : l.known / l.total;
    const goal = l.target === null ? '' : l.count ? `${l.target}` : `${Math.round(l.target * 100)} %`;
    const mark = l.target === null ? '' : lineMet(l) ? `  ✓ ≥ ${goal}` : `  ✗ below ${goal}`;
    const figure = l.count ? `${String(l.known).padStart(4)}       ${''.padStart(7)}` : `${String(l.known).padStart(4)} / ${String(l.total).padEnd(4)} ${(share * 100).toFixed(1).padStart(5)} %`;
    return `  ${l.field.padEnd(26)} ${figure} of ${l.over}${mark}`;
  });
  return ['School facts known:', ...rows].join('\n');
}

export const coverageMet = (lines: readonly CoverageLine[]) => lines.every(lineMet);
