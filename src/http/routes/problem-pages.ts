/**
 * GET /problems/{code}: the page a problem's `type` URI names (RFC 9457 §3.1.1: a URI that,
 * dereferenced, documents the problem for people), in French and in English: what it means,
 * when the API answers it, and what a client should do.
 */
import type { FastifyInstance } from 'fastify';
import { cachedOrBuild, makeResponse } from '../../web/cached-response.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { httpRevision } from '../../web/revision-state.js';
import { problemBase, sendProblem } from '../../web/problem-reply.js';
import { PROBLEMS, type ProblemCode, type Text } from '../../directory/messages.js';
import { DOCS_PATH, HTML_TYPE } from './docs.js';
import { HOME_POLICY, prepareHomeAssets } from './home.js';
import { escapeHtml } from '../../text/html.js';

export const PROBLEMS_PATH = '/problems';

/** When each problem is answered and what to do, in both languages. */
const HELP: Record<ProblemCode, { when: Text; then: Text }> = {
  'invalid-parameter': {
    when: { fr: 'Un paramètre de la requête n’a pas une valeur permise (un niveau inconnu, un nombre mal écrit, un paramètre donné deux fois…). `errors` liste chaque paramètre fautif, avec la règle enfreinte (`code`) et, quand une valeur proche existe, `suggestion`.', en: 'A query parameter has a value it does not allow (an unknown level, a badly written number, a parameter given twice…). `errors` lists each one, with the rule broken (`code`) and, when a close value exists, `suggestion`.' },
    then: { fr: 'Corrigez la valeur (la suggestion, souvent) ; les valeurs permises sont dans le document OpenAPI et, pour les niveaux et disciplines, dans /levels et /subjects.', en: 'Fix the value (often the suggestion); allowed values are in the OpenAPI document and, for levels and subjects, in /levels and /subjects.' },
  },
  'bad-request': {
    when: { fr: 'La requête elle-même est invalide : URL mal encodée, chemin trop long, corps envoyé alors que l’API n’en prend pas, en-tête Host absent ou répété.', en: 'The request itself is invalid: a badly encoded URL, a path too long, a body sent to an API that takes none, a missing or repeated Host header.' },
    then: { fr: 'Corrigez la requête ; la réessayer telle quelle donnera la même réponse.', en: 'Fix the request; sending it again as it is gets the same answer.' },
  },
  'not-found': {
    when: { fr: 'Rien n’est publié à cette adresse : un outil ou une collection inconnus ou retirés (`suggestions` propose les slugs proches), ou un chemin hors de l’API.', en: 'Nothing is published at this address: an unknown or unpublished tool or collection (`suggestions` offers close slugs), or a path outside the API.' },
    then: { fr: 'Vérifiez le slug (GET /tools le donne) ; un outil renommé répond 301 vers son nouveau slug, pas 404.', en: 'Check the slug (GET /tools gives it); a renamed tool answers 301 to its new slug, not 404.' },
  },
  'method-not-allowed': {
    when: { fr: 'L’API est en lecture seule : seules GET, HEAD et OPTIONS sont permises (POST sur /mcp aussi). L’en-tête `Allow` les liste.', en: 'The API is read-only: only GET, HEAD and OPTIONS are allowed (and POST on /mcp). The `Allow` header lists them.' },
    then: { fr: 'Utilisez GET.', en: 'Use GET.' },
  },
  'request-timeout': {
    when: { fr: 'La requête n’est pas arrivée à temps : les en-têtes en 5 secondes, la requête entière en 10.', en: 'The request did not arrive in time: its headers within 5 seconds, the whole request within 10.' },
    then: { fr: 'Réessayez ; la connexion a été fermée.', en: 'Try again; the connection was closed.' },
  },
  'expectation-failed': {
    when: { fr: 'L’en-tête `Expect` demande autre chose que `100-continue`.', en: 'The `Expect` header asks for something other than `100-continue`.' },
    then: { fr: 'Retirez cet en-tête.', en: 'Remove that header.' },
  },
  'rate-limited': {
    when: { fr: 'Trop de requêtes de la même adresse sur la fenêtre glissante (60 par minute par défaut). `Retry-After` dit dans combien de secondes une requête sera de nouveau acceptée ; les requêtes refusées ne comptent pas.', en: 'Too many requests from the same address in the rolling window (60 a minute by default). `Retry-After` says in how many seconds a request will be accepted again; refused requests do not count.' },
    then: { fr: 'Attendez `Retry-After` secondes ; gardez les réponses (ETag, If-None-Match) ou prenez l’export complet plutôt que de tout redemander.', en: 'Wait `Retry-After` seconds; keep responses (ETag, If-None-Match) or take the full export rather than asking for everything again.' },
  },
  'headers-too-large': {
    when: { fr: 'La ligne de requête et les en-têtes dépassent 16 ko.', en: 'The request line and headers exceed 16 kB.' },
    then: { fr: 'Envoyez moins d’en-têtes ou une URL plus courte.', en: 'Send fewer headers or a shorter URL.' },
  },
  'internal-error': {
    when: { fr: 'Une erreur inattendue côté serveur. `request_id` identifie la requête dans les journaux.', en: 'An unexpected error on the server. `request_id` identifies the request in the logs.' },
    then: { fr: 'Réessayez plus tard ; si l’erreur revient, signalez-la avec `request_id`.', en: 'Try again later; if it comes back, report it with `request_id`.' },
  },
};

function problemPage(code: ProblemCode, cssPath: string): string {
  const { status, title } = PROBLEMS[code];
  const help = HELP[code];
  const md = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title.fr)} (${status}) — problème de l’API</title>
<link rel="stylesheet" href="${escapeHtml(cssPath)}">
</head>
<body>
<main>
<h1>${escapeHtml(title.fr)} <small>(HTTP ${status}, <code>${escapeHtml(code)}</code>)</small></h1>
<p>${md(help.when.fr)}</p>
<p><strong>Que faire :</strong> ${md(help.then.fr)}</p>
<section lang="en">
<h2>${escapeHtml(title.en)} (HTTP ${status})</h2>
<p>${md(help.when.en)}</p>
<p><strong>What to do:</strong> ${md(help.then.en)}</p>
</section>
<p>Les problèmes suivent la RFC 9457 : <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, en français ou en anglais selon <code>Accept-Language</code>. <a href="${PROBLEMS_PATH}">Tous les problèmes</a> · <a href="${DOCS_PATH}">Référence de l’API</a> · <a href="/developpeurs">Développeurs</a></p>
</main>
</body>
</html>
`;
}

function problemIndex(cssPath: string): string {
  const items = (Object.keys(PROBLEMS) as ProblemCode[]).map((c) => `<li><a href="${PROBLEMS_PATH}/${c}">${escapeHtml(PROBLEMS[c].title.fr)}</a> (${PROBLEMS[c].status}, <code>${c}</code>)</li>`);
  return `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Les problèmes de l’API</title><link rel="stylesheet" href="${escapeHtml(cssPath)}"></head>
<body><main><h1>Les problèmes que l’API peut répondre</h1><p lang="en">The problems the API may answer (RFC 9457), each documented in French and English.</p><ul>
${items.join('\n')}
</ul></main></body></html>
`;
}

export function problemPageRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const page = async (key: string, build: (css: string) => string, request: Parameters<Parameters<typeof getAndHead>[3]>[0], reply: Parameters<Parameters<typeof getAndHead>[3]>[1]) => {
    const css = await prepareHomeAssets();
    const state = ctx.directory.current;
    const entry = cachedOrBuild(httpRevision(state).responses, key, () =>
      makeResponse(200, build(css.path), { 'content-type': HTML_TYPE, 'content-security-policy': HOME_POLICY, 'referrer-policy': 'no-referrer' }),
    );
    return ctx.send(request, reply, state, entry);
  };
  getAndHead(app, PROBLEMS_PATH, { schema: { hide: true } }, (request, reply) => page('PROBLEMS', problemIndex, request, reply));
  getAndHead(app, `${PROBLEMS_PATH}/:code`, { schema: { hide: true } }, (request, reply) => {
    const code = (request.params as { code: string }).code;
    if (!Object.hasOwn(PROBLEMS, code)) {
      return sendProblem(request, reply, problemBase(ctx.config.publicBaseUrl), 'not-found', { fr: `Aucun problème n’a le code « ${code.slice(0, 60)} ».`, en: `No problem has the code "${code.slice(0, 60)}".` });
    }
    return page(`PROBLEM ${code}`, (css) => problemPage(code as ProblemCode, css), request, reply);
  });
}
