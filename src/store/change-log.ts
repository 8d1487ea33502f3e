/**
 * The change log: what each import did to each tool, as a syncing client must learn it.
 * `updated_since` alone never tells a client that a tool was unpublished or renamed, so
 * every import that changes something records one change per tool it touched, computed
 * from the same before/after datasets as the import report, inside the import's
 * transaction (both engines), and kept in the store so it survives restarts and is the
 * same on every instance.
 *
 * Only what the public could see is recorded. A draft's edits record nothing; a tool that
 * becomes a draft records `unpublished` with its last published slug and facts, never the
 * draft's. A tool that becomes published records `created`, or `republished` when the log
 * has seen it (under its slug or a former one) before.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ChangeKind, Dataset, ToolChange, ToolRecord } from '../domain.js';
import { canonicalDate, type Row } from './rows.js';

export const CHANGE_COLUMNS = ['revision', 'position', 'changed_at', 'kind', 'slug', 'previous_slug', 'tool'] as const;

/** What the store already knows, read inside the import transaction. */
export interface ChangeHistory {
  /** Every slug the log has named (as `slug` or `previous_slug`): each was public once. */
  slugs: ReadonlySet<string>;
  /** The newest instant in the log, or null when it is empty. */
  latest: string | null;
}

/**
 * The import's instant: now, to the second (the API's date format), but never earlier
 * than the newest change already recorded, so a client resuming with `since=<last instant>`
 * cannot miss a change to a clock that stepped back (NTP, another importing machine).
 */
export function changeInstant(now: Date, latest: string | null): string {
  const instant = canonicalDate(new Date(Math.floor(now.getTime() / 1000) * 1000));
  return latest !== null && latest > instant ? latest : instant;
}

/** Same record as far as the public can tell (status and former slugs are handled apart). */
function samePublicRecord(a: ToolRecord, b: ToolRecord): boolean {
  return isDeepStrictEqual({ ...a, status: null, former_slugs: null }, { ...b, status: null, former_slugs: null });
}

/** The changes from `before` to `after`, in slug order, for revision `revision` at `at`. */
export function toolChanges(before: Dataset, after: Dataset, history: ChangeHistory, revision: number, at: string): ToolChange[] {
  const previous = new Map(before.tools.map((t) => [t.slug, t]));
  const current = new Set(after.tools.map((t) => t.slug));
  const accounted = new Set<string>();
  const changes: Array<Omit<ToolChange, 'revision' | 'at'>> = [];
  const record = (kind: ChangeKind, tool: ToolRecord, dataset: Dataset, previousSlug: string | null = null) => {
    const category = dataset.categories.find((c) => c.slug === tool.category);
    changes.push({
      kind,
      slug: tool.slug,
      previous_slug: previousSlug,
      tool: {
        name: tool.name,
        short_description: tool.short_description,
        category: { slug: tool.category, name: category?.name ?? tool.category },
        pricing: tool.pricing.model,
        website_url: tool.website_url,
      },
    });
  };

  for (const tool of after.tools) {
    let prev = previous.get(tool.slug);
    let renamedFrom: string | null = null;
    if (prev === undefined) {
      // A rename: the new record names, among its former slugs, one that is gone.
      renamedFrom = tool.former_slugs.find((s) => previous.has(s) && !current.has(s)) ?? null;
      if (renamedFrom !== null) prev = previous.get(renamedFrom);
    }
    if (prev !== undefined) accounted.add(prev.slug);
    const wasPublic = prev?.status === 'published';
    const isPublic = tool.status === 'published';
    if (wasPublic && isPublic) {
      if (renamedFrom !== null) record('renamed', tool, after, renamedFrom);
      else if (!samePublicRecord(prev!, tool)) record('updated', tool, after);
    } else if (isPublic) {
      const seen = [tool.slug, ...tool.former_slugs, ...(prev ? [prev.slug] : [])].some((s) => history.slugs.has(s));
      record(seen ? 'republished' : 'created', tool, after);
    } else if (wasPublic) {
      record('unpublished', prev!, before);
    }
  }
  // Records deleted from the content: the published ones leave the directory.
  for (const prev of before.tools) {
    if (!accounted.has(prev.slug) && prev.status === 'published') record('unpublished', prev, before);
  }
  changes.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return changes.map((c) => ({ revision, at, ...c }));
}

/** Table rows for `changes`; the tool's facts go in a JSON column (text here, for both engines). */
export function changesToRows(changes: readonly ToolChange[]): Row[] {
  const positions = new Map<number, number>();
  return changes.map((c) => {
    const position = positions.get(c.revision) ?? 0;
    positions.set(c.revision, position + 1);
    return { revision: c.revision, position, changed_at: c.at, kind: c.kind, slug: c.slug, previous_slug: c.previous_slug, tool: JSON.stringify(c.tool) };
  });
}

/** Rows ordered by revision and position → changes. */
export function rowsToChanges(rows: readonly Row[]): ToolChange[] {
  return rows.map((r) => ({
    revision: Number(r.revision),
    at: canonicalDate(r.changed_at),
    kind: r.kind as ChangeKind,
    slug: r.slug as string,
    previous_slug: (r.previous_slug as string | null) ?? null,
    tool: typeof r.tool === 'string' ? JSON.parse(r.tool) : (r.tool as ToolChange['tool']),
  }));
}

/** The history an import needs, from the log's slug columns and newest instant. */
export function changeHistory(slugRows: readonly Row[], latest: unknown): ChangeHistory {
  const slugs = new Set<string>();
  for (const r of slugRows) {
    slugs.add(r.slug as string);
    if (r.previous_slug) slugs.add(r.previous_slug as string);
  }
  return { slugs, latest: latest === null || latest === undefined ? null : canonicalDate(latest) };
}

export const SELECT_CHANGES = `SELECT ${CHANGE_COLUMNS.join(', ')} FROM tool_changes ORDER BY revision, position`;
export const SELECT_HISTORY_SLUGS = 'SELECT DISTINCT slug, previous_slug FROM tool_changes';
export const SELECT_LATEST_CHANGE = 'SELECT MAX(changed_at) AS latest FROM tool_changes';
