/** GET /tools and GET /tools/{slug}. */
import type { FastifyInstance } from 'fastify';
import { makeResponse, type CachedResponse } from '../../web/cached-response.js';
import { API_PREFIX, mediaBaseOf, serialize } from '../../directory/representations.js';
import { findTool, toolDetailBody, toolsPageParts } from '../../directory/directory-queries.js';
import { discoveryLinkEntries } from '../../formats/discovery.js';
import { linkHeader } from '../../directory/pagination.js';
import { baseUrlOf } from '../../directory/public-base.js';
import { MAX_SLUG_LENGTH, type RawQuery } from '../../directory/query-parameters.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import type { DirectoryState } from '../../live-directory.js';
import { canonicalToolsQuery, parseToolsQuery } from '../../directory/tools-query.js';
import { ToolDetail, ToolList, ToolsQuery, ToolSlugParams } from '../../schemas/tools.js';
import { BadRequest, documented, NotFound, NotModified, TooManyRequests } from '../../schemas/common.js';
import { cachedOnRepeat, httpRevision } from '../../web/revision-state.js';

export function toolRoutes(app: FastifyInstance, ctx: RouteContext): void {
  getAndHead(
    app,
    `${API_PREFIX}/tools`,
    {
      schema: {
        operationId: 'listTools',
        summary: 'List published tools',
        description: 'Paginated, filterable, searchable list. Filters combine with AND; a parameter given twice is a 400.',
        tags: ['tools'],
        querystring: ToolsQuery,
        response: {
          200: documented(ToolList, 'A page of published tools', { 'X-Total-Count': { type: 'integer', description: 'meta.total' } }),
          304: NotModified,
          400: BadRequest,
          429: TooManyRequests,
        },
      },
    },
    (request, reply) => {
      const state = ctx.directory.current;
      const entry = toolListEntry(ctx, state, request.query as RawQuery, baseUrlOf(request, ctx.config.publicBaseUrl));
      return ctx.send(request, reply, state, entry);
    },
  );

  getAndHead(
    app,
    `${API_PREFIX}/tools/:slug`,
    {
      schema: {
        operationId: 'getTool',
        summary: 'One published tool',
        description: 'A slug that was renamed answers 301 to the canonical URL.',
        tags: ['tools'],
        params: ToolSlugParams,
        response: {
          200: documented(ToolDetail, 'One published tool'),
          301: { description: 'The slug was renamed: Location holds the canonical URL', type: 'null', headers: { Location: { type: 'string', description: 'Canonical URL' } } },
          304: NotModified,
          404: NotFound,
          429: TooManyRequests,
        },
      },
    },
    (request, reply) => {
      const { slug } = request.params as { slug: string };
      const state = ctx.directory.current;
      const { model } = state;
      const { responses } = httpRevision(state);
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      // A slug that is not a slug is never a cache key (findTool refuses it).
      const key = `D ${base} ${slug}`;
      let entry = slug.length <= MAX_SLUG_LENGTH ? responses.get(key) : undefined;
      if (entry === undefined) {
        const found = findTool(model, slug);
        if (found.index !== undefined) {
          entry = makeResponse(200, serialize.toolDetail(toolDetailBody(model, found.index, base, ctx.license, mediaBaseOf(ctx.config.publicMediaUrl, base))), { link: ctx.licenseLink });
        } else {
          entry = makeResponse(301, '', { location: `${base}${API_PREFIX}/tools/${found.renamedTo}`, link: ctx.licenseLink });
          delete entry.headers['content-type'];
        }
        responses.set(key, entry);
      }
      return ctx.send(request, reply, state, entry);
    },
  );
}

/**
 * The response of GET /tools for a query as parsed from the URL, from the revision's
 * response cache or built and kept there. The route above and the fast path
 * (http/fast-path.ts, for a list never asked before) both answer with it. Throws the
 * ProblemError of a bad parameter.
 */
export function toolListEntry(ctx: Pick<RouteContext, 'license' | 'licenseLink'>, state: DirectoryState, raw: RawQuery, base: string): CachedResponse {
  const query = parseToolsQuery(raw, state.model.school);
  const key = `T ${base} ${canonicalToolsQuery(query, query.page)}`;
  return cachedOnRepeat(httpRevision(state), key, () => {
    const page = toolsPageParts(state.model, query, base, ctx.license);
    // The feeds and exports are announced here too (discovery.ts), after the page links.
    return makeResponse(200, state.toolLists.serialize(page, base), { link: linkHeader(ctx.licenseLink, page.links, discoveryLinkEntries(base)), 'x-total-count': String(page.meta.total) });
  });
}
