/**
 * GET /docs: the interactive API reference (Scalar), rendered in the browser from
 * /api/v1/directory/openapi.json, its "try it" calling this server (the document has no
 * `servers`, so the page's own origin). Everything it loads comes from here: Scalar's
 * Fastify plugin is run once per process, in a worker thread on a throwaway instance
 * (docs-worker.ts), to obtain its bundle and its page for our configuration, and we serve
 * both ourselves: the bundle fingerprinted,
 * compressed once and cached for a year (static-assets.ts), the page with a CSP that names
 * the hash of its one inline script. docs/api-decisions.md says why Scalar and why not its
 * own routes.
 */
import { countAsPage } from '../../web/problem-reply.js';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { makeResponse, type CachedResponse } from '../../web/cached-response.js';
import { API_PREFIX } from '../../directory/representations.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { makeStaticAsset } from '../../web/static-assets.js';
import type { DocsWorkerResult } from './docs-worker.js';

export const DOCS_PATH = '/docs';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** What Scalar would otherwise fetch or show: fonts from its CDN, telemetry, a developer toolbar, an AI agent. */
const CONFIGURATION = {
  url: `${API_PREFIX}/openapi.json`,
  pageTitle: 'Référence de l’API — Annuaire IA & EdTech',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  hideClientButton: true,
} as const;

export interface DocsPage {
  page: CachedResponse;
  csp: string;
}

/** The `'sha256-…'` source of every inline script in `html` (CSP Level 2 hash sources). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1]!)) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2]!, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * Scripts and styles from this origin only, plus the page's own inline script by hash.
 * Scalar inserts its stylesheet as `<style>` elements from its bundle at run time, which
 * no hash can name in advance: styles keep `'unsafe-inline'` (they cannot run code).
 */
export function docsPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What docs-worker.ts makes, from a worker thread that ends once it has answered. */
function runPlugin(): Promise<DocsWorkerResult> {
  // Compiled, this file is .js; under tsx (tests, scripts) it is .ts, and so is the worker,
  // whose thread then needs tsx's loader registered first (hooks are per thread).
  const typescript = import.meta.url.endsWith('.ts');
  const file = new URL(`./docs-worker${typescript ? '.ts' : '.js'}`, import.meta.url);
  const options = { workerData: { configuration: CONFIGURATION } };
  return new Promise((resolve, reject) => {
    const worker = typescript
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); });`, { ...options, eval: true })
      : new Worker(file, options);
    worker.once('message', (result: DocsWorkerResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the docs worker exited with code ${code} before answering`)));
  });
}

async function buildDocs(): Promise<DocsPage> {
  const made = await runPlugin();
  const bundle = await makeStaticAsset('scalar', 'js', 'application/javascript; charset=utf-8', Buffer.from(made.bundle.buffer, made.bundle.byteOffset, made.bundle.byteLength));
  if (bundle.path !== made.bundlePath) throw new Error(`the page names ${made.bundlePath}, the bundle is ${bundle.path}`);
  const html = made.html.replace(/<html>/i, '<html lang="fr">');
  const csp = docsPolicy(inlineScriptHashes(html));
  const page = makeResponse(200, html, { 'content-type': HTML_TYPE, 'content-security-policy': csp, 'referrer-policy': 'no-referrer' });
  return { page, csp };
}

let prepared: Promise<DocsPage> | undefined;

/**
 * The page and its bundle, made once per process (about 2.5 s, mostly brotli, off the main
 * thread). server.ts starts it at boot; otherwise the first request for the page does.
 */
export function prepareDocs(): Promise<DocsPage> {
  prepared ??= buildDocs().catch((err: unknown) => {
    prepared = undefined; // a later request tries again
    throw err;
  });
  return prepared;
}

export function docsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  countAsPage(DOCS_PATH);
  getAndHead(app, DOCS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const { page } = await prepareDocs();
    return ctx.send(request, reply, ctx.directory.current, page);
  });
}
