/** GET /feed.json (JSON Feed 1.1) and GET /feed.atom (Atom 1.0): the 50 latest changes. */
import type { FastifyInstance } from 'fastify';
import { mediaResponses } from '../../schemas/common.js';
import { JsonFeed } from '../../schemas/feeds.js';
import { cachedOrBuild, makeResponse } from '../../web/cached-response.js';
import { ATOM_TYPE, FEED_ATOM_PATH, FEED_JSON_PATH, JSON_FEED_TYPE } from '../../formats/discovery.js';
import { atomFeed, jsonFeed, type FeedContext } from '../../formats/feeds.js';
import { baseUrlOf } from '../../directory/public-base.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { httpRevision } from '../../web/revision-state.js';

const FEED_DESCRIPTION =
  'One entry per change (created, updated, unpublished, republished, renamed), newest first, each with an id of its own, ' +
  'so feed readers and automation tools see an update as new. Licence and attribution at feed level.';

export function feedRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const feeds = [
    { path: FEED_JSON_PATH, type: JSON_FEED_TYPE, key: 'FJ', operationId: 'getJsonFeed', build: jsonFeed, summary: 'JSON Feed 1.1 of the 50 latest changes', schema: JsonFeed },
    { path: FEED_ATOM_PATH, type: ATOM_TYPE, key: 'FA', operationId: 'getAtomFeed', build: atomFeed, summary: 'Atom 1.0 feed of the 50 latest changes', schema: { type: 'string', description: 'An Atom 1.0 document (RFC 4287)' } },
  ];
  for (const feed of feeds) {
    getAndHead(
      app,
      feed.path,
      {
        schema: {
          operationId: feed.operationId,
          summary: feed.summary,
          description: FEED_DESCRIPTION,
          tags: ['changes'],
          response: mediaResponses(feed.type, feed.schema, feed.summary),
        },
      },
      (request, reply) => {
        const state = ctx.directory.current;
        const base = baseUrlOf(request, ctx.config.publicBaseUrl);
        const entry = cachedOrBuild(httpRevision(state).responses, `${feed.key} ${base}`, () => {
          const feedContext: FeedContext = { base, license: ctx.license, publisher: ctx.config.publisher };
          return makeResponse(200, feed.build(state.model, feedContext), { 'content-type': `${feed.type}; charset=utf-8`, link: ctx.licenseLink });
        });
        return ctx.send(request, reply, state, entry);
      },
    );
  }
}
