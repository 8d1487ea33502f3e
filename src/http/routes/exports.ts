/**
 * GET /export/tools.ndjson, GET /export/tools.csv and GET /datapackage.json. Each is built
 * once per revision (and base URL: the links inside are absolute) as bytes with an ETag,
 * compressed on demand and kept, like every other response; requests never run SQL. The
 * exports are kept beside the model rather than in the response cache, so a burst of
 * distinct /tools queries cannot evict a megabyte that would then be rebuilt.
 */
import type { FastifyInstance } from 'fastify';
import { Memo } from '../../memo.js';
import type { ReadModel } from '../../read-model/read-model.js';
import { mediaResponses } from '../../schemas/common.js';
import { DataPackage } from '../../schemas/exports.js';
import { makeResponse, type CachedResponse } from '../../web/cached-response.js';
import { CSV_TYPE, DATAPACKAGE_PATH, EXPORT_CSV_PATH, EXPORT_NDJSON_PATH, NDJSON_TYPE } from '../../formats/discovery.js';
import { csvExport, dataPackage, ndjsonExport, type ExportContext } from '../../formats/exports.js';
import { baseUrlOf } from '../../directory/public-base.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { mediaBaseOf } from '../../directory/representations.js';

type ExportName = 'ndjson' | 'csv' | 'datapackage';
const OPERATION_IDS: Record<ExportName, string> = { ndjson: 'exportToolsNdjson', csv: 'exportToolsCsv', datapackage: 'getDataPackage' };

/** Per model: base URL → built exports. Few base URLs are ever seen; past 8, start again. */
const built = new WeakMap<ReadModel, Memo<string, Partial<Record<ExportName, CachedResponse>>>>();

function exportsOf(model: ReadModel, base: string): Partial<Record<ExportName, CachedResponse>> {
  let byBase = built.get(model);
  if (!byBase) built.set(model, (byBase = new Memo(8)));
  return byBase.get(base, () => ({}));
}

export function exportRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const build = (model: ReadModel, base: string, name: ExportName): CachedResponse => {
    const slot = exportsOf(model, base);
    const existing = slot[name];
    if (existing) return existing;
    const exportContext: ExportContext = { base, license: ctx.license, publisher: ctx.config.publisher };
    let entry: CachedResponse;
    if (name === 'ndjson') {
      entry = makeResponse(200, ndjsonExport(model, base, mediaBaseOf(ctx.config.publicMediaUrl, base)), {
        'content-type': `${NDJSON_TYPE}; charset=utf-8`,
        'content-disposition': 'attachment; filename="tools.ndjson"',
        link: ctx.licenseLink,
      });
    } else if (name === 'csv') {
      entry = makeResponse(200, csvExport(model, base, mediaBaseOf(ctx.config.publicMediaUrl, base)), {
        // RFC 4180 §3: the optional `header` parameter says the first line names the columns.
        'content-type': `${CSV_TYPE}; charset=utf-8; header=present`,
        'content-disposition': 'attachment; filename="tools.csv"',
        link: ctx.licenseLink,
      });
    } else {
      entry = makeResponse(200, dataPackage(exportContext, build(model, base, 'csv'), build(model, base, 'ndjson')), { link: ctx.licenseLink });
    }
    slot[name] = entry;
    return entry;
  };

  const routes: Array<{ path: string; name: ExportName; summary: string; description: string; type: string; schema: object }> = [
    {
      path: EXPORT_NDJSON_PATH,
      name: 'ndjson',
      summary: 'Every published tool, full detail, one JSON object per line',
      description: 'Each line is the `data` of GET /tools/{slug}, in name order; as many lines as `meta.total` of /tools.',
      type: NDJSON_TYPE,
      schema: { type: 'string', description: 'NDJSON: one Tool object per line (see GET /tools/{slug})' },
    },
    {
      path: EXPORT_CSV_PATH,
      name: 'csv',
      summary: 'Every published tool, one row each (CSV for spreadsheets)',
      description:
        'The summary fields, pricing details, education program and freshness dates. `;`-separated, RFC 4180 quoting, CRLF, UTF-8 with BOM ' +
        '(opens correctly in a French Excel), decimal comma, lists joined with ` | `, a header row; columns described in datapackage.json.',
      type: CSV_TYPE,
      schema: { type: 'string', description: 'CSV text' },
    },
    {
      path: DATAPACKAGE_PATH,
      name: 'datapackage',
      summary: 'Frictionless Data Package describing the exports',
      description: 'Both exports with their schemas, size and sha256, the CC BY 4.0 licence and the publisher as source.',
      type: 'application/json',
      schema: DataPackage,
    },
  ];

  for (const route of routes) {
    getAndHead(
      app,
      route.path,
      {
        schema: {
          operationId: OPERATION_IDS[route.name],
          summary: route.summary,
          description: route.description,
          tags: ['exports'],
          response: mediaResponses(route.type, route.schema, route.summary),
        },
      },
      (request, reply) => {
        const state = ctx.directory.current;
        const entry = build(state.model, baseUrlOf(request, ctx.config.publicBaseUrl), route.name);
        return ctx.send(request, reply, state, entry);
      },
    );
  }
}
