/** GET /tools and GET /tools/{slug}. */
import type { FastifyInstance } from 'fastify';
import { facetCounts } from '../../read-model/facets.js';
import { listTools } from '../../read-model/list-tools.js';
import { MESSAGES } from '../messages.js';
import { ProblemError } from '../problems.js';
import { cachedOrBuild, makeResponse } from '../cached-response.js';
import { API_PREFIX, mediaBaseOf, serialize, toolDetail, toolSummary } from '../representations.js';
import { discoveryLinkEntries } from '../discovery.js';
import { linkHeader, pageLinks } from '../pagination.js';
import { baseUrlOf } from '../request-context.js';
import { MAX_SLUG_LENGTH, SLUG, getAndHead, type RouteContext } from '../route-context.js';
import { canonicalToolsQuery, parseToolsQuery } from '../tools-query.js';
import { ToolDetail, ToolList, ToolsQuery, SlugParams } from '../../schemas/tools.js';
import { BadRequest, documented, NotFound, NotModified, TooManyRequests } from '../../schemas/common.js';
import { closest } from '../../text/french-text.js';

export function toolRoutes(app: FastifyInstance, ctx: RouteContext): void {
  getAndHead(
    app,
    `${API_PREFIX}/tools`,
    {
      schema: {
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
      const query = parseToolsQuery(request.query as Record<string, string | string[]>);
      const state = ctx.directory.current;
      const { model, responses } = state;
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      const canonical = canonicalToolsQuery(query, query.page);
      const key = `T ${base} ${canonical}`;
      const entry = cachedOrBuild(responses, key, () => {
        const page = listTools(model, query);
        const totalPages = Math.ceil(page.total / query.perPage);
        const links = pageLinks((p) => `${base}${API_PREFIX}/tools?${canonicalToolsQuery(query, p)}`, query.page, totalPages);
        const facets = query.facets.length > 0 ? facetCounts(model, query, query.facets) : undefined;
        const body = serialize.toolList({
          data: page.items.map((i) => toolSummary(model, i, base)),
          meta: { page: query.page, per_page: query.perPage, total: page.total, total_pages: totalPages, license: ctx.license, facets },
          links,
        });
        // The feeds and exports are announced here too (discovery.ts), after the page links.
        return makeResponse(200, body, { link: linkHeader(ctx.licenseLink, links, discoveryLinkEntries(base)), 'x-total-count': String(page.total) });
      });
      return ctx.send(request, reply, state, entry);
    },
  );

  getAndHead(
    app,
    `${API_PREFIX}/tools/:slug`,
    {
      schema: {
        summary: 'One published tool',
        description: 'A slug that was renamed answers 301 to the canonical URL.',
        tags: ['tools'],
        params: SlugParams,
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
      const { model, responses } = state;
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      // Params arrive percent-decoded (`..%2f` is `../`): check the shape before any lookup.
      const valid = slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug);
      const key = `D ${base} ${slug}`;
      let entry = valid ? responses.get(key) : undefined;
      if (entry === undefined && valid) {
        const index = model.toolIndex.get(slug);
        const renamed = model.redirects.get(slug);
        if (index !== undefined) {
          entry = makeResponse(200, serialize.toolDetail({ data: toolDetail(model, index, base, mediaBaseOf(ctx.config.publicMediaUrl, base)), meta: { license: ctx.license } }), { link: ctx.licenseLink });
        } else if (renamed !== undefined) {
          entry = makeResponse(301, '', { location: `${base}${API_PREFIX}/tools/${renamed}`, link: ctx.licenseLink });
          delete entry.headers['content-type'];
        }
        if (entry) responses.set(key, entry);
      }
      if (entry === undefined) {
        const suggestions = closest(slug.toLowerCase().slice(0, MAX_SLUG_LENGTH), model.toolIndex.keys(), 3);
        throw new ProblemError('not-found', MESSAGES.noSuchSlug('tool', slug.slice(0, MAX_SLUG_LENGTH), suggestions), suggestions.length ? { suggestions } : {});
      }
      return ctx.send(request, reply, state, entry);
    },
  );
}
