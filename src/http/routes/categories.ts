/** GET /categories: every category with its published-tool count. */
import type { FastifyInstance } from 'fastify';
import { cachedOrBuild, makeResponse } from '../../web/cached-response.js';
import { API_PREFIX, serialize } from '../../directory/representations.js';
import { categoryListBody } from '../../directory/directory-queries.js';
import { baseUrlOf } from '../../directory/public-base.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { CategoryList } from '../../schemas/categories.js';
import { documented, NotModified, TooManyRequests } from '../../schemas/common.js';
import { httpRevision } from '../../web/revision-state.js';

export function categoryRoutes(app: FastifyInstance, ctx: RouteContext): void {
  getAndHead(
    app,
    `${API_PREFIX}/categories`,
    {
      schema: {
        operationId: 'listCategories',
        summary: 'Categories with their published-tool counts',
        description: 'Ordered by name (French collation).',
        tags: ['categories'],
        response: { 200: documented(CategoryList, 'Categories with published-tool counts'), 304: NotModified, 429: TooManyRequests },
      },
    },
    (request, reply) => {
      const state = ctx.directory.current;
      const { model } = state;
      const { responses } = httpRevision(state);
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      const key = `G ${base}`;
      const entry = cachedOrBuild(responses, key, () => makeResponse(200, serialize.categoryList(categoryListBody(model, base, ctx.license)), { link: ctx.licenseLink }));
      return ctx.send(request, reply, state, entry);
    },
  );
}
