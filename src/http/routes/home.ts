/**
 * GET /: a small page in French (with an English line) saying what the directory is, how
 * much it holds at the current revision, where the reference, the OpenAPI document, the
 * feeds and exports are, and how to credit the data (CC BY 4.0). Built once per revision
 * and base URL into the response cache, like any other answer; every value is escaped; no
 * script, and its one stylesheet is a fingerprinted file of ours (static-assets.ts).
 */
import { countAsPage } from '../../web/problem-reply.js';
import type { FastifyInstance } from 'fastify';
import { cachedOrBuild, makeResponse } from '../../web/cached-response.js';
import { DISCOVERY_LINKS } from '../../formats/discovery.js';
import { API_PREFIX, attributionOf } from '../../directory/representations.js';
import { baseUrlOf } from '../../directory/public-base.js';
import { CC_BY, getAndHead, type RouteContext } from '../../web/route-context.js';
import { makeStaticAsset, type StaticAsset } from '../../web/static-assets.js';
import type { ReadModel } from '../../read-model/read-model.js';
import { DOCS_PATH, HTML_TYPE } from './docs.js';
import { httpRevision } from '../../web/revision-state.js';
import { escapeHtml } from '../../text/html.js';

/** No script at all; styles and images from this origin only. */
/** The developers' page (what used to be the home page, before the catalogue took `/`). */
export const DEVELOPERS_PATH = '/developpeurs';

export const HOME_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLESHEET = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; }
.en { color: GrayText; margin-top: 0; }
dl.counts { display: flex; gap: 2rem; margin: 1.5rem 0; }
dl.counts div { display: flex; flex-direction: column-reverse; }
dl.counts dd { font-size: 2rem; font-weight: 700; margin: 0; }
code, blockquote, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: Canvas; border: 1px solid GrayText; padding: .5rem; }
code { overflow-wrap: anywhere; }
dl.counts { flex-wrap: wrap; }
blockquote { border-left: 4px solid GrayText; margin: 0; padding: .5rem 1rem; }
footer { margin-top: 2rem; font-size: .9rem; color: GrayText; }
`;

let stylesheet: Promise<StaticAsset> | undefined;

export function prepareHomeAssets(): Promise<StaticAsset> {
  stylesheet ??= makeStaticAsset('home', 'css', 'text/css; charset=utf-8', Buffer.from(STYLESHEET, 'utf8'));
  return stylesheet;
}

const frenchNumber = new Intl.NumberFormat('fr-FR');

export function homePage(model: ReadModel, css: StaticAsset, publisher: { name: string; url: string | null }, base: string): string {
  const attribution = attributionOf(publisher);
  const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  const feeds = DISCOVERY_LINKS.map((l) => `<link rel="${l.rel}" type="${escapeHtml(l.type)}" href="${escapeHtml(l.path)}" title="${escapeHtml(l.title)}">`);
  const exports = DISCOVERY_LINKS.map((l) => `<li>${link(l.path, l.title)} <code>${escapeHtml(l.path)}</code></li>`);
  const count = (n: number, label: string) => `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(frenchNumber.format(n))}</dd></div>`;
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Annuaire IA &amp; EdTech — API publique</title>
<meta name="description" content="API JSON publique et gratuite d’un annuaire d’outils d’IA et d’EdTech pour l’éducation francophone.">
<link rel="stylesheet" href="${escapeHtml(css.path)}">
<link rel="license" href="${escapeHtml(CC_BY.url)}">
<link rel="describedby" type="application/openapi+json" href="${API_PREFIX}/openapi.json">
${feeds.join('\n')}
</head>
<body>
<main>
<h1>Annuaire des outils d’IA et d’EdTech pour l’éducation francophone</h1>
<p class="en" lang="en">A public, read-only JSON API over a directory of AI and EdTech tools for French-speaking education: no key, open CORS, data under CC BY 4.0. Start with the <a href="${DOCS_PATH}">API reference</a>.</p>
<p>Une API JSON publique, en lecture seule et sans clé, sur un annuaire d’outils d’intelligence artificielle et de technologies éducatives choisis pour les enseignants, formateurs et apprenants francophones, avec des collections éditoriales (les meilleurs outils pour une tâche, les outils d’un métier).</p>
<dl class="counts">
${count(model.tools.length, 'outils publiés')}
${count(model.collections.length, 'collections')}
${count(model.categories.length, 'catégories')}
</dl>
<h2>Utiliser l’API</h2>
<ul>
<li>${link(DOCS_PATH, 'Référence interactive de l’API')} : chaque route, ses paramètres, et un bouton pour l’essayer.</li>
<li>${link(`${API_PREFIX}/openapi.json`, 'Document OpenAPI 3.1')} <code>${API_PREFIX}/openapi.json</code></li>
<li>${link('/llms.txt', 'llms.txt')} : l’API décrite pour les agents et les modèles de langage.</li>
<li>Premiers appels, à copier tels quels :
<pre><code>curl '${escapeHtml(base)}${API_PREFIX}/tools?q=quiz'
curl '${escapeHtml(base)}${API_PREFIX}/tools?subject=svt&amp;level=college&amp;pupil_account=none,class_code'
curl '${escapeHtml(base)}${API_PREFIX}/tools/chatgpt'
curl '${escapeHtml(base)}${API_PREFIX}/levels'</code></pre></li>
</ul>
<h2>Flux et exports</h2>
<ul>
${exports.join('\n')}
</ul>
<h2>Licence et attribution</h2>
<p>Les données sont publiées sous ${link(CC_BY.url, 'licence Creative Commons Attribution 4.0 International (CC BY 4.0)')} : vous pouvez les copier, les modifier et les réutiliser, y compris commercialement, à condition de créditer la source. Indiquez, près des données réutilisées :</p>
<blockquote>${escapeHtml(`Source : ${attribution}, sous licence CC BY 4.0 (${CC_BY.url})`)}</blockquote>
<p>et signalez si vous les avez modifiées. Chaque réponse de l’API porte la même attribution dans <code>meta.license.attribution</code> et un en-tête <code>Link: &lt;${escapeHtml(CC_BY.url)}&gt;; rel="license"</code>.</p>
</main>
<footer>Révision ${escapeHtml(model.revision)} des données · éditeur : ${publisher.url ? link(publisher.url, publisher.name) : escapeHtml(publisher.name)}</footer>
</body>
</html>
`;
}

export function homeRoutes(app: FastifyInstance, ctx: RouteContext): void {
  countAsPage(DEVELOPERS_PATH);
  getAndHead(app, DEVELOPERS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const css = await prepareHomeAssets();
    const state = ctx.directory.current;
    // The curl lines are absolute (to be copied): one entry per revision and base URL.
    const base = baseUrlOf(request, ctx.config.publicBaseUrl);
    const entry = cachedOrBuild(httpRevision(state).responses, `HOME ${base}`, () =>
      makeResponse(200, homePage(state.model, css, ctx.config.publisher, base), {
        'content-type': HTML_TYPE,
        'content-security-policy': HOME_POLICY,
        'referrer-policy': 'no-referrer',
        link: ctx.licenseLink,
      }),
    );
    return ctx.send(request, reply, state, entry);
  });
}
