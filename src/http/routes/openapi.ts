/** GET /openapi.json: the OpenAPI 3.1 document generated from the route schemas. */
import type { FastifyInstance } from 'fastify';
import { makeResponse, type CachedResponse } from '../../web/cached-response.js';
import { API_PREFIX } from '../../directory/representations.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';

export function openapiRoute(app: FastifyInstance, ctx: RouteContext): void {
  let entry: CachedResponse | undefined;
  getAndHead(
    app,
    `${API_PREFIX}/openapi.json`,
    { schema: { operationId: 'getOpenApi', summary: 'This OpenAPI 3.1 document', tags: ['meta'], response: { 200: { type: 'object', additionalProperties: true } } } },
    (request, reply) => {
      // Generated once, after every route is registered; it does not depend on the data.
      entry ??= makeResponse(200, JSON.stringify(app.swagger()), { link: ctx.licenseLink });
      return ctx.send(request, reply, ctx.directory.current, entry);
    },
  );
}
