/**
 * The catalogue's routes (`/`, `/outils`, `/outils/{slug}`, `/collections`,
 * `/comparer`, `/collections/{slug}`, `/a-propos/logos`, `/sitemap.xml`, `/robots.txt`, `/logos/…`):
 * each page rendered once per data revision, base URL and normalised query, and served as
 * cached bytes with an ETag and br/gzip like the API; a strict CSP (our own stylesheet and
 * script, no inline code, nothing from another origin).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cachedOrBuild, makeResponse, sendCached, type CachedResponse } from '../web/cached-response.js';
import type { RawQuery } from '../directory/query-parameters.js';
import { getAndHead, type RouteContext } from '../web/route-context.js';
import { cachedOnRepeat, httpRevision } from '../web/revision-state.js';
import { IMMUTABLE, makeStaticAsset, type StaticAsset } from '../web/static-assets.js';
import { countAsPage, exemptFromRateLimit } from '../web/problem-reply.js';
import { baseUrlOf } from '../directory/public-base.js';
import { mediaBaseOf } from '../directory/representations.js';
import { LOGO_PREFIX } from '../logos/simple-icons.js';
import { PROJECT_ROOT } from '../config.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { collectionPage, collectionsPage, homePage, logosPage, notFoundPage, pageQuery, rateLimitedPage, pageQueryKey, toolPage, toolsListPage, type Rendered } from './catalogue.js';
import { robotsTxt, sitemapXml } from './sitemap.js';
import { comparedSlugs, comparePage } from './compare.js';
import type { PageContext } from './render.js';
import type { DirectoryState } from '../live-directory.js';

export const HTML_TYPE = 'text/html; charset=utf-8';
/** Our stylesheet and script only; images from here (logos) and data: (none today); forms to here. */
export const PAGE_POLICY = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

interface PageAssets {
  css: StaticAsset;
  js: StaticAsset;
  icon: StaticAsset;
}

let assets: Promise<PageAssets> | undefined;

export function preparePageAssets(): Promise<PageAssets> {
  assets ??= (async () => {
    const dir = path.join(PROJECT_ROOT, 'src', 'pages');
    const [css, js, icon] = await Promise.all(['site.css', 'site.js', 'favicon.svg'].map((f) => readFile(path.join(dir, f))));
    return {
      css: await makeStaticAsset('site', 'css', 'text/css; charset=utf-8', css!),
      js: await makeStaticAsset('site', 'js', 'text/javascript; charset=utf-8', js!),
      icon: await makeStaticAsset('favicon', 'svg', 'image/svg+xml', icon!),
    };
  })();
  return assets;
}

const html = (rendered: Rendered): CachedResponse =>
  rendered.status === 301
    ? makeResponse(301, '', { location: rendered.location!, 'content-type': HTML_TYPE })
    : makeResponse(rendered.status, rendered.html, { 'content-type': HTML_TYPE, 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'strict-origin-when-cross-origin' });

/**
 * A page kept per revision, base URL and key (the path and what the page reads of the
 * query), from its second request (cachedOnRepeat). Only a 200 or a 301 is kept and
 * remembered by the fast path: an error page is rendered for its request alone, so no
 * request can leave one where another is looked up.
 */
function pageEntry(c: PageContext, state: DirectoryState, key: string, render: (c: PageContext) => Rendered): CachedResponse {
  return cachedOnRepeat(httpRevision(state), `PAGE ${c.base} ${key}`, () => html(render(c)), (entry) => entry.status === 200 || entry.status === 301);
}

/** /outils for a query as the router parses it: its key and its render. */
function toolsListing(raw: RawQuery): { key: string; render: (c: PageContext) => Rendered } {
  // The key is what the page reads of the query, nothing more and nothing less (pageQuery).
  const query = pageQuery(raw);
  return { key: `/outils?${pageQueryKey(query)}`, render: (c) => toolsListPage(c, query) };
}

/**
 * A search's page never asked before, built by the fast path (http/fast-path.ts) without
 * Fastify, as never-seen API searches are: the route's own key, context and render, so the
 * bytes are the route's. A page that is not a 200 (a bad parameter, a page past the last)
 * throws, and the route answers it as always; so does a request before the assets are read.
 */
export function toolsPageBuilder(ctx: RouteContext): (state: DirectoryState, raw: RawQuery, base: string) => CachedResponse {
  let assets: PageAssets | undefined;
  preparePageAssets().then((a) => (assets = a), () => undefined);
  return (state, raw, base) => {
    if (assets === undefined) throw new Error('the page assets are not read yet');
    const { key, render } = toolsListing(raw);
    const entry = pageEntry(contextOf(ctx, state, base, assets), state, key, render);
    if (entry.status !== 200) throw new Error(`/outils answers ${entry.status}`);
    return entry;
  };
}

export function pageRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const context = (request: FastifyRequest, state = ctx.directory.current) => pageContext(request, ctx, state);
  const serve = async (request: FastifyRequest, reply: FastifyReply, key: string, render: (c: PageContext) => Rendered) => {
    const state = ctx.directory.current;
    const entry = pageEntry(await context(request, state), state, key, render);
    if (entry.status !== 200 && entry.status !== 301) return sendCached(request, reply, entry);
    return ctx.send(request, reply, state, entry);
  };
  const slugOf = (request: FastifyRequest) => String((request.params as { slug?: string }).slug ?? '');
  const hidden = { schema: { hide: true } };

  for (const path of ['/', '/outils', '/comparer', '/collections', '/sitemap.xml', '/robots.txt']) countAsPage(path);
  for (const prefix of ['/outils/', '/collections/', '/a-propos/']) countAsPage(prefix, true);
  getAndHead(app, '/', hidden, (request, reply) => serve(request, reply, '/', homePage));
  getAndHead(app, '/outils', hidden, (request, reply) => {
    const { key, render } = toolsListing(request.query as RawQuery);
    return serve(request, reply, key, render);
  });
  getAndHead(app, '/comparer', hidden, (request, reply) => {
    // Kept per list of slugs as asked (order is the columns'); a list it cannot compare is a 4xx, never kept.
    const slugs = comparedSlugs(request.query as RawQuery);
    return serve(request, reply, `/comparer?${slugs.join(',')}`, (c) => comparePage(c, slugs));
  });
  getAndHead(app, '/outils/:slug', hidden, (request, reply) => serve(request, reply, `/outils/${slugOf(request).slice(0, 100)}`, (c) => toolPage(c, slugOf(request))));
  getAndHead(app, '/collections', hidden, (request, reply) => serve(request, reply, '/collections', collectionsPage));
  getAndHead(app, '/collections/:slug', hidden, (request, reply) => serve(request, reply, `/collections/${slugOf(request).slice(0, 100)}`, (c) => collectionPage(c, slugOf(request))));
  getAndHead(app, '/a-propos/logos', hidden, (request, reply) => serve(request, reply, '/a-propos/logos', logosPage));
  getAndHead(app, '/sitemap.xml', hidden, async (request, reply) => {
    const state = ctx.directory.current;
    const c = await context(request, state);
    const entry = cachedOrBuild(httpRevision(state).responses, `SITEMAP ${c.base}`, () => makeResponse(200, sitemapXml(c), { 'content-type': 'application/xml; charset=utf-8' }));
    return ctx.send(request, reply, state, entry);
  });
  getAndHead(app, '/robots.txt', hidden, async (request, reply) => {
    const state = ctx.directory.current;
    const c = await context(request, state);
    const entry = cachedOrBuild(httpRevision(state).responses, `ROBOTS ${c.base}`, () => makeResponse(200, robotsTxt(c.base), { 'content-type': 'text/plain; charset=utf-8' }));
    return ctx.send(request, reply, state, entry);
  });
  // Logos: fingerprinted names, kept for a year, outside the rate limit like the pages' files.
  exemptFromRateLimit(LOGO_PREFIX, true);
  getAndHead(app, `${LOGO_PREFIX}:file`, hidden, async (request, reply) => {
    const file = String((request.params as { file: string }).file);
    const model = ctx.directory.current.model;
    const index = model.logoFiles.get(file);
    if (index === undefined) {
      const c = await context(request);
      const page = notFoundPage(c, 'Ce logo n’est pas (ou plus) publié.', null);
      return reply.code(404).header('content-type', HTML_TYPE).header('content-security-policy', PAGE_POLICY).header('cache-control', 'public, max-age=300').send(page.html);
    }
    const svg = model.logos[index]!.svg;
    return reply.code(200).header('content-type', 'image/svg+xml').header('cache-control', IMMUTABLE).header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(svg);
  });
}

/** The French 404 page for a path nothing serves, for a browser (Accept: text/html). */
export async function notFoundHtml(request: FastifyRequest, ctx: RouteContext): Promise<string> {
  return String(notFoundPage(await pageContext(request, ctx), 'Rien n’est publié à cette adresse.', null).html);
}

/**
 * The French page a person gets past the pages' budget (PAGE_RATE_LIMIT_MAX): what happened,
 * when to come back, and that a shared address (a school's) counts as one.
 */
export async function rateLimitedHtml(request: FastifyRequest, ctx: RouteContext, limit: number, retryAfterSeconds: number): Promise<string> {
  return String(rateLimitedPage(await pageContext(request, ctx), limit, retryAfterSeconds).html);
}

/** What a page is rendered with: the revision's model, the base of links, the fingerprinted files. */
async function pageContext(request: FastifyRequest, ctx: RouteContext, state = ctx.directory.current): Promise<PageContext> {
  return contextOf(ctx, state, baseUrlOf(request, ctx.config.publicBaseUrl), await preparePageAssets());
}

function contextOf(ctx: RouteContext, state: DirectoryState, base: string, { css, js, icon }: PageAssets): PageContext {
  return { model: state.model, base, license: ctx.license, publisher: ctx.config.publisher, media: mediaBaseOf(ctx.config.publicMediaUrl, base), css: css.path, js: js.path, icon: icon.path };
}
