/**
 * How much of the directory's school facts are known: the figures a publisher reads to see
 * what is missing (npm run content:check), and the targets the bundled content must reach.
 */
import type { SchoolFacts, ToolRecord } from '../domain.js';

export interface CoverageLine {
  field: string;
  /** The tools the figure is over (published ones, or published ones pupils use). */
  over: 'published' | 'pupil';
  known: number;
  total: number;
  /** The share the bundled content must reach, or null when there is no target. */
  target: number | null;
}

type Fact = keyof Omit<SchoolFacts, 'sources'>;
const LINES: Array<[Fact, CoverageLine['over'], number | null]> = [
  ['levels', 'published', 0.95],
  ['subjects', 'published', 0.95],
  ['pupil_use', 'published', 0.95],
  ['generative_ai', 'published', 0.95],
  ['open_source', 'published', 0.95],
  ['pupil_account', 'published', 0.8],
  ['offline', 'published', 0.8],
  ['min_age', 'pupil', 0.6],
  ['trains_on_user_data', 'published', null],
  ['data_location', 'published', null],
  ['institutional_access', 'published', null],
  ['accessibility_url', 'published', null],
];

/** Pupils use it: its `pupil_use` is known and is not `teacher_only`. */
export const pupilsUse = (t: ToolRecord) => t.school.pupil_use !== null && t.school.pupil_use !== 'teacher_only';

export function schoolCoverage(tools: readonly ToolRecord[]): CoverageLine[] {
  const published = tools.filter((t) => t.status === 'published');
  const pupil = published.filter(pupilsUse);
  return LINES.map(([field, over, target]) => {
    const set = over === 'pupil' ? pupil : published;
    const known = set.filter((t) => t.school[field] !== null).length;
    return { field, over, known, total: set.length, target };
  });
}

export function formatCoverage(lines: readonly CoverageLine[]): string {
  const rows = lines.map((l) => {
    const share = l.total === 0 ? 1 : l.known / l.total;
    const mark = l.target === null ? '' : share >= l.target ? `  ✓ ≥ ${Math.round(l.target * 100)} %` : `  ✗ below ${Math.round(l.target * 100)} %`;
    const over = l.over === 'pupil' ? 'published tools pupils use' : 'published tools';
    return `  ${l.field.padEnd(22)} ${String(l.known).padStart(4)} / ${String(l.total).padEnd(4)} ${(share * 100).toFixed(1).padStart(5)} % of ${over}${mark}`;
  });
  return ['School facts known:', ...rows].join('\n');
}

export const coverageMet = (lines: readonly CoverageLine[]) => lines.every((l) => l.target === null || l.total === 0 || l.known / l.total >= l.target);
