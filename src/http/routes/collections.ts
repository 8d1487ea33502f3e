/** GET /collections and GET /collections/{slug}. */
import type { FastifyInstance } from 'fastify';
import { cachedOrBuild, makeResponse } from '../../web/cached-response.js';
import { API_PREFIX, serialize } from '../../directory/representations.js';
import { collectionDetailBody, collectionListBody, findCollection, parseCollectionKind } from '../../directory/directory-queries.js';
import { baseUrlOf } from '../../directory/public-base.js';
import type { RawQuery } from '../../directory/query-parameters.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { CollectionDetail, CollectionList, CollectionsQuery } from '../../schemas/collections.js';
import { BadRequest, documented, NotFound, NotModified, TooManyRequests } from '../../schemas/common.js';
import { CollectionSlugParams } from '../../schemas/tools.js';
import { httpRevision } from '../../web/revision-state.js';

export function collectionRoutes(app: FastifyInstance, ctx: RouteContext): void {
  getAndHead(
    app,
    `${API_PREFIX}/collections`,
    {
      schema: {
        operationId: 'listCollections',
        summary: 'Published editorial collections',
        description: 'Ordered by kind (top, then stack) then title. Never paginated.',
        tags: ['collections'],
        querystring: CollectionsQuery,
        response: { 200: documented(CollectionList, 'Published collections'), 304: NotModified, 400: BadRequest, 429: TooManyRequests },
      },
    },
    (request, reply) => {
      const kind = parseCollectionKind(request.query as RawQuery);
      const state = ctx.directory.current;
      const { model } = state;
      const { responses } = httpRevision(state);
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      const key = `C ${base} ${kind ?? ''}`;
      const entry = cachedOrBuild(responses, key, () => {
        return makeResponse(200, serialize.collectionList(collectionListBody(model, kind, base, ctx.license)), { link: ctx.licenseLink });
      });
      return ctx.send(request, reply, state, entry);
    },
  );

  getAndHead(
    app,
    `${API_PREFIX}/collections/:slug`,
    {
      schema: {
        operationId: 'getCollection',
        summary: 'One published collection with all its published tools',
        tags: ['collections'],
        params: CollectionSlugParams,
        response: { 200: documented(CollectionDetail, 'One collection with its published tools'), 304: NotModified, 404: NotFound, 429: TooManyRequests },
      },
    },
    (request, reply) => {
      const { slug } = request.params as { slug: string };
      const state = ctx.directory.current;
      const { model } = state;
      const { responses } = httpRevision(state);
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      const index = findCollection(model, slug);
      const key = `K ${base} ${slug}`;
      const entry = cachedOrBuild(responses, key, () =>
        makeResponse(200, serialize.collectionDetail(collectionDetailBody(model, index, base, ctx.license)), { link: ctx.licenseLink }),
      );
      return ctx.send(request, reply, state, entry);
    },
  );
}
