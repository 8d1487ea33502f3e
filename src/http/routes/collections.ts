/** GET /collections and GET /collections/{slug}. */
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../messages.js';
import { ProblemError, type ParameterError } from '../problems.js';
import { refuseIfAny, single, withSuggestion, type RawQuery } from '../query-parameters.js';
import { cachedOrBuild, makeResponse } from '../cached-response.js';
import { API_PREFIX, collectionDetail, collectionSummary, serialize } from '../representations.js';
import { baseUrlOf } from '../request-context.js';
import { MAX_SLUG_LENGTH, SLUG, getAndHead, type RouteContext } from '../route-context.js';
import { CollectionDetail, CollectionList, CollectionsQuery } from '../../schemas/collections.js';
import { BadRequest, documented, NotFound, NotModified, TooManyRequests } from '../../schemas/common.js';
import { SlugParams } from '../../schemas/tools.js';
import { closest } from '../../text/french-text.js';
import { COLLECTION_KINDS } from '../../domain.js';

export function collectionRoutes(app: FastifyInstance, ctx: RouteContext): void {
  getAndHead(
    app,
    `${API_PREFIX}/collections`,
    {
      schema: {
        summary: 'Published editorial collections',
        description: 'Ordered by kind (top, then stack) then title. Never paginated.',
        tags: ['collections'],
        querystring: CollectionsQuery,
        response: { 200: documented(CollectionList, 'Published collections'), 304: NotModified, 400: BadRequest, 429: TooManyRequests },
      },
    },
    (request, reply) => {
      const errors: ParameterError[] = [];
      const text = single(request.query as RawQuery, 'kind', errors)?.trim();
      let kind: string | null = null;
      if (text !== undefined && text !== '') {
        kind = text.toLowerCase();
        if (!(COLLECTION_KINDS as readonly string[]).includes(kind)) {
          const suggestion = closest(kind.slice(0, 40), COLLECTION_KINDS, 1)[0];
          errors.push(withSuggestion({ parameter: 'kind', value: text, rule: MESSAGES.oneOf(COLLECTION_KINDS, false) }, suggestion));
        }
      }
      refuseIfAny(errors);
      const state = ctx.directory.current;
      const { model, responses } = state;
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      const key = `C ${base} ${kind ?? ''}`;
      const entry = cachedOrBuild(responses, key, () => {
        const data = model.collections.flatMap((c, ci) => (kind === null || c.record.kind === kind ? [collectionSummary(model, ci, base)] : []));
        return makeResponse(200, serialize.collectionList({ data, meta: { total: data.length, license: ctx.license } }), { link: ctx.licenseLink });
      });
      return ctx.send(request, reply, state, entry);
    },
  );

  getAndHead(
    app,
    `${API_PREFIX}/collections/:slug`,
    {
      schema: {
        summary: 'One published collection with all its published tools',
        tags: ['collections'],
        params: SlugParams,
        response: { 200: documented(CollectionDetail, 'One collection with its published tools'), 304: NotModified, 404: NotFound, 429: TooManyRequests },
      },
    },
    (request, reply) => {
      const { slug } = request.params as { slug: string };
      const state = ctx.directory.current;
      const { model, responses } = state;
      const base = baseUrlOf(request, ctx.config.publicBaseUrl);
      const valid = slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug);
      const index = valid ? model.collectionIndex.get(slug) : undefined;
      if (index === undefined) {
        const suggestions = closest(slug.toLowerCase().slice(0, MAX_SLUG_LENGTH), model.collectionIndex.keys(), 3);
        throw new ProblemError('not-found', MESSAGES.noSuchSlug('collection', slug.slice(0, MAX_SLUG_LENGTH), suggestions), suggestions.length ? { suggestions } : {});
      }
      const key = `K ${base} ${slug}`;
      const entry = cachedOrBuild(responses, key, () =>
        makeResponse(200, serialize.collectionDetail({ data: collectionDetail(model, index, base), meta: { license: ctx.license } }), { link: ctx.licenseLink }),
      );
      return ctx.send(request, reply, state, entry);
    },
  );
}
