/**
 * GET /openapi.json: the OpenAPI 3.1 document generated from the route schemas, with the
 * query parameters' examples arranged for the reference page's « try it » (tryItExamples).
 */
import type { FastifyInstance } from 'fastify';
import { makeResponse, type CachedResponse } from '../../web/cached-response.js';
import { API_PREFIX } from '../../directory/representations.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { TRY_IT } from '../../schemas/common.js';

interface Parameter {
  in?: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown; 'x-disabled'?: boolean }>;
  schema?: Record<string, unknown>;
}

/**
 * The default request of every operation answers something (docs/api-decisions.md, "/docs").
 * Scalar's « try it » switches on every optional parameter whose first example has a value,
 * unless that example says `x-disabled: true`: with all of them on, GET /tools asked for
 * nine filters at once and got `data: []`. So an optional query parameter's examples stay
 * (the page shows them, one click switches them on) but only those the route schema marks
 * `TRY_IT` are sent by default, and those are chosen to combine into a useful request.
 */
export function tryItExamples<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, { parameters?: Parameter[] }>> }).paths ?? {};
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        const on = parameter.schema?.[TRY_IT] === true;
        if (parameter.schema !== undefined) delete parameter.schema[TRY_IT];
        if (parameter.in !== 'query' || parameter.required === true) continue;
        const examples = parameter.example !== undefined ? [{ value: parameter.example }] : Object.values(parameter.examples ?? {});
        if (examples.length === 0) continue;
        // Scalar looks the default example up by the name `default` (else it falls back to the
        // schema's `default`, and sends `per_page=30`): the first example takes that name.
        const [first, ...others] = examples;
        parameter.examples = {
          default: on ? first! : { ...first, 'x-disabled': true },
          ...Object.fromEntries(others.map((example) => [String(example.value), example])),
        };
        delete parameter.example;
      }
    }
  }
  return document;
}

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
