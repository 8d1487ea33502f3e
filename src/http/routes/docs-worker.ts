/**
 * Runs Scalar's Fastify plugin once, in a worker thread, on a throwaway instance: returns
 * its bundle and its page for our configuration, with the page pointing at the bundle's
 * fingerprinted path. In a worker so that the plugin's module (a 4.9 MB script held as a
 * string, about 23 MB of heap once loaded) is gone when the thread ends; only the bytes
 * come back (docs.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import scalar, { type FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';
import Fastify from 'fastify';
import { ASSET_PREFIX, fingerprint } from '../../web/static-assets.js';

export interface DocsWorkerResult {
  bundle: Uint8Array;
  bundlePath: string;
  html: string;
}

/** Runs the plugin on an instance of its own and returns what `path` answers. */
async function fromPlugin(configuration: FastifyApiReferenceOptions['configuration'], path: string): Promise<Buffer> {
  const scratch = Fastify({ logger: false });
  try {
    await scratch.register(scalar, { routePrefix: '/reference', configuration: configuration ?? {} });
    const response = await scratch.inject({ method: 'GET', url: `/reference${path}` });
    if (response.statusCode !== 200) throw new Error(`Scalar's plugin answered ${response.statusCode} for ${path}`);
    return response.rawPayload;
  } finally {
    await scratch.close();
  }
}

const configuration = (workerData as { configuration: FastifyApiReferenceOptions['configuration'] }).configuration;
const bundle = await fromPlugin(configuration, '/js/scalar.js');
const bundlePath = `${ASSET_PREFIX}scalar.${fingerprint(bundle)}.js`;
const html = (await fromPlugin({ ...configuration, cdn: bundlePath }, '/')).toString('utf8');
const result: DocsWorkerResult = { bundle, bundlePath, html };
parentPort!.postMessage(result, [bundle.buffer as ArrayBuffer]);
