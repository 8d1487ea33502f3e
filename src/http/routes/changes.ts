/**
 * GET /changes?since=…: the change log (store/change-log.ts), oldest first, paginated like
 * /tools, so a syncing client resumes from the last instant it saw (docs/sync.md). Served
 * from the read model like everything else: no SQL per request.
 */
import type { FastifyInstance } from 'fastify';
import fastJson from 'fast-json-stringify';
import type { ToolChange } from '../../domain.js';
import type { ReadModel } from '../../read-model/read-model.js';
import { ChangeList, ChangesQuery, type Change } from '../../schemas/changes.js';
import { BadRequest, documented, NotModified, TooManyRequests } from '../../schemas/common.js';
import { cachedOrBuild, makeResponse } from '../../web/cached-response.js';
import { CHANGES_PATH } from '../../formats/discovery.js';
import { linkHeader, pageLinks } from '../../directory/pagination.js';
import type { ParameterError } from '../../directory/problems.js';
import { instantParameter, parsePaging, refuseIfAny, type RawQuery } from '../../directory/query-parameters.js';
import { API_PREFIX, TOOL_PAGE_PREFIX } from '../../directory/representations.js';
import { baseUrlOf } from '../../directory/public-base.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { httpRevision } from '../../web/revision-state.js';

const serializeChangeList = fastJson(ChangeList);

export function changeEntry(change: ToolChange, base: string): Change {
  return {
    kind: change.kind,
    slug: change.slug,
    previous_slug: change.previous_slug,
    name: change.tool.name,
    revision: change.revision,
    changed_at: change.at,
    links: {
      tool: change.kind === 'unpublished' ? null : `${base}${API_PREFIX}/tools/${change.slug}`,
      page: change.kind === 'unpublished' ? null : `${base}${TOOL_PAGE_PREFIX}${change.slug}`,
    },
  };
}

/** The index of the first change at or after `since` (the log's instants never decrease). */
export function firstChangeSince(model: ReadModel, since: number): number {
  const times = model.changeTimes;
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function changeRoutes(app: FastifyInstance, ctx: RouteContext): void {
  getAndHead(
    app,
    CHANGES_PATH,
    {
      schema: {
        operationId: 'listChanges',
        summary: 'The change log: one entry per tool change',
        description:
          'Every change an import made to a published tool (created, updated, unpublished, republished, renamed), oldest first, ' +
          'so a client resumes with `since` set to the last `changed_at` it saw (inclusive: drop what it already has, by revision and slug). ' +
          'Drafts never appear. Paginated like /tools.',
        tags: ['changes'],
        querystring: ChangesQuery,
        response: {
          200: documented(ChangeList, 'A page of the change log', { 'X-Total-Count': { type: 'integer', description: 'meta.total' } }),
          304: NotModified,
          400: BadRequest,
          429: TooManyRequests,
        },
      },
    },
    (request, reply) => {
      const raw = request.query as RawQuery;
      const errors: ParameterError[] = [];
      const { page, perPage } = parsePaging(raw, errors);
      const since = instantParameter(raw, 'since', errors);
      refuseIfAny(errors);
      const state = ctx.directory.current;
      const { model } = state;
      const { responses } = httpRevision(state);
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      const canonical = (p: number) => `${since === null ? '' : `since=${since.canonical}&`}page=${p}&per_page=${perPage}`;
      const entry = cachedOrBuild(responses, `H ${base} ${canonical(page)}`, () => {
        const first = since === null ? 0 : firstChangeSince(model, since.ms);
        const total = model.changes.length - first;
        const totalPages = Math.ceil(total / perPage);
        const links = pageLinks((p) => `${base}${CHANGES_PATH}?${canonical(p)}`, page, totalPages);
        const start = first + Math.min((page - 1) * perPage, total);
        const body = serializeChangeList({
          data: model.changes.slice(start, Math.min(start + perPage, model.changes.length)).map((c) => changeEntry(c, base)),
          meta: { page, per_page: perPage, total, total_pages: totalPages, license: ctx.license },
          links,
        });
        return makeResponse(200, body, { link: linkHeader(ctx.licenseLink, links), 'x-total-count': String(total) });
      });
      return ctx.send(request, reply, state, entry);
    },
  );
}
