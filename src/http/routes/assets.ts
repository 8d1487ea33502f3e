/** GET /assets/<name>.<hash>.<ext>: the fingerprinted files of the HTML pages (static-assets.ts). */
import type { FastifyInstance } from 'fastify';
import { problemBase, sendProblem } from '../../web/problem-reply.js';
import { getAndHead } from '../../web/route-context.js';
import { ASSET_PREFIX, findStaticAsset, sendStaticAsset } from '../../web/static-assets.js';
import { prepareDocs } from './docs.js';
import { prepareHomeAssets } from './home.js';

/** `prepare`: makes every page's files, for an asset asked before its page was first served. */
export function assetRoutes(app: FastifyInstance, publicBaseUrl: string | null, prepare: () => Promise<unknown> = async () => {}): void {
  getAndHead(app, `${ASSET_PREFIX}:file`, { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    // A page cached by a browser may ask for its files before this process has made them.
    const asset = findStaticAsset(path) ?? (await Promise.all([prepareDocs(), prepareHomeAssets(), prepare()]), findStaticAsset(path));
    if (asset !== undefined) return sendStaticAsset(request, reply, asset);
    const shown = path.slice(0, 200);
    return sendProblem(request, reply, problemBase(publicBaseUrl), 'not-found', { fr: `Aucun fichier n’est publié à ${shown}.`, en: `No file is published at ${shown}.` });
  });
}
