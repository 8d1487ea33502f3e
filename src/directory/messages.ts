/**
 * Every text an error answer carries, in French and English (../shared/API.md, "Errors in
 * French and English"): the problem titles, keyed by problem code, and the details and
 * parameter rules, as functions of their values. French is the default: the audience is
 * French-speaking. Machine fields (`type`, `status`, `errors[].parameter`, `errors[].code`,
 * `errors[].value`, `suggestion(s)`) never depend on the language.
 */
import { STATUS_CODES } from 'node:http';

export const LANGUAGES = ['fr', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];
/** One text in every language. */
export type Text = Readonly<Record<Lang, string>>;

export const PROBLEMS = {
  'invalid-parameter': { status: 400, title: { fr: 'Paramètre de requête invalide', en: 'Invalid query parameter' } },
  'bad-request': { status: 400, title: { fr: 'Requête invalide', en: 'Bad request' } },
  'not-found': { status: 404, title: { fr: 'Introuvable', en: 'Not found' } },
  'method-not-allowed': { status: 405, title: { fr: 'Méthode non autorisée', en: 'Method not allowed' } },
  'request-timeout': { status: 408, title: { fr: 'Délai de requête dépassé', en: 'Request timeout' } },
  'expectation-failed': { status: 417, title: { fr: 'Attente impossible à satisfaire', en: 'Expectation failed' } },
  'rate-limited': { status: 429, title: { fr: 'Trop de requêtes', en: 'Too many requests' } },
  'headers-too-large': { status: 431, title: { fr: 'En-têtes de requête trop volumineux', en: 'Request header fields too large' } },
  'internal-error': { status: 500, title: { fr: 'Erreur interne du serveur', en: 'Internal server error' } },
} as const satisfies Record<string, { status: number; title: Text }>;

export type ProblemCode = keyof typeof PROBLEMS;

/** Titles of the statuses a problem may take besides its code's own (a 414 `bad-request`). */
const STATUS_TITLES: Record<number, Text> = {
  400: PROBLEMS['bad-request'].title,
  404: PROBLEMS['not-found'].title,
  413: { fr: 'Corps de requête trop volumineux', en: 'Content too large' },
  414: { fr: 'URL trop longue', en: 'URI too long' },
  415: { fr: 'Type de contenu non pris en charge', en: 'Unsupported media type' },
};

export function titleOf(code: ProblemCode, status: number): Text {
  if (status === PROBLEMS[code].status) return PROBLEMS[code].title;
  return STATUS_TITLES[status] ?? { fr: PROBLEMS[code].title.fr, en: STATUS_CODES[status] ?? PROBLEMS[code].title.en };
}

/**
 * The language of the answer: the best of `fr` and `en` by the q-values of Accept-Language
 * (RFC 9110 §12.5.4; `fr-CA` is `fr`, `*` is the default), the first listed on a tie;
 * French when neither is acceptable or the header is absent.
 */
export function negotiateLanguage(header: string | undefined): Lang {
  if (header === undefined || header === '') return 'fr';
  let best: Lang = 'fr';
  let bestQ = 0;
  for (const range of header.slice(0, 512).split(',')) {
    const [tagText, ...params] = range.split(';');
    const tag = tagText!.trim().toLowerCase();
    const primary = tag === '*' ? 'fr' : tag.split('-', 1)[0];
    if (primary !== 'fr' && primary !== 'en') continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (q > bestQ) {
      best = primary;
      bestQ = q;
    }
  }
  return best;
}

const quoted = (lang: Lang, s: string) => (lang === 'fr' ? `« ${s} »` : `"${s}"`);
const both = (f: (lang: Lang) => string): Text => ({ fr: f('fr'), en: f('en') });

/** A rule a parameter broke: a stable code for programs, and its text. */
export interface Rule {
  code: string;
  message: Text;
}

/**
 * The JSON types of MCP arguments (mcp/tool-arguments.ts): each also takes REST's text, so
 * the rule names both.
 */
export type JsonKind = 'string' | 'integer' | 'boolean' | 'list';
const JSON_KINDS: Record<JsonKind | 'object', Text> = {
  string: { fr: 'doit être une chaîne de caractères', en: 'must be a string' },
  object: { fr: 'doit être un objet JSON', en: 'must be a JSON object' },
  integer: { fr: 'doit être un nombre entier (12 ou « 12 »)', en: 'must be a whole number (12 or "12")' },
  boolean: { fr: 'doit valoir true ou false (ou « true », « false », « 1 », « 0 »)', en: 'must be true or false (or "true", "false", "1", "0")' },
  list: { fr: 'doit être une liste de chaînes (["a", "b"]) ou une chaîne de valeurs séparées par des virgules (« a,b »)', en: 'must be a list of strings (["a", "b"]) or one string of comma-separated values ("a,b")' },
};

/** The texts of details and parameter rules. */
export const MESSAGES = {
  /** `; did you mean "x"?` after a rule, when a value is close. */
  didYouMean: (rule: Text, suggestion: string | undefined): Text =>
    suggestion === undefined ? rule : { fr: `${rule.fr} ; vouliez-vous dire ${quoted('fr', suggestion)} ?`, en: `${rule.en}; did you mean ${quoted('en', suggestion)}?` },
  repeated: (): Rule => ({
    code: 'repeated',
    message: { fr: 'est donné plusieurs fois ; donnez-le une fois (une liste séparée par des virgules pour plusieurs valeurs)', en: 'is given more than once; give it once (use a comma-separated list for several values)' },
  }),
  page: (max: number): Rule => ({ code: 'not_whole_number', message: { fr: `doit être un nombre entier de 1 à ${max}`, en: `must be a whole number from 1 to ${max}` } }),
  perPage: (max: number): Rule => ({
    code: 'not_whole_number',
    message: { fr: `doit être un nombre entier de 1 à ${max} (au-delà, ${max} est appliqué)`, en: `must be a whole number from 1 to ${max} (larger values are clamped to ${max})` },
  }),
  oneOf: (values: readonly string[], several: boolean): Rule => ({
    code: 'not_in_enum',
    message: {
      fr: `doit valoir ${values.slice(0, -1).join(', ')} ou ${values.at(-1)}${several ? ', ou plusieurs de ces valeurs séparées par des virgules' : ''}`,
      en: `must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}${several ? ', or several separated by commas' : ''}`,
    },
  }),
  slugList: (): Rule => ({
    code: 'not_slug_list',
    message: {
      fr: 'doit être un ou plusieurs slugs de catégorie séparés par des virgules (lettres minuscules, chiffres et tirets)',
      en: 'must be one or more category slugs separated by commas (lowercase letters, digits and hyphens)',
    },
  }),
  level: (): Rule => ({
    code: 'not_in_vocabulary',
    message: {
      fr: 'doit être un niveau de /levels (slug ou alias : maternelle, cp, 6e, cycle 3, seconde, bts…), ou plusieurs séparés par des virgules',
      en: 'must be a level of /levels (slug or alias: maternelle, cp, 6e, cycle 3, seconde, bts…), or several separated by commas',
    },
  }),
  subject: (): Rule => ({
    code: 'not_in_vocabulary',
    message: {
      fr: 'doit être une discipline de /subjects (slug ou alias : francais, maths, hg, svt, anglais…), ou plusieurs séparées par des virgules',
      en: 'must be a subject of /subjects (slug or alias: francais, maths, hg, svt, anglais…), or several separated by commas',
    },
  }),
  age: (min: number, max: number): Rule => ({ code: 'not_whole_number', message: { fr: `doit être un âge en années, nombre entier de ${min} à ${max}`, en: `must be an age in years, a whole number from ${min} to ${max}` } }),
  forPupilsNeedsAge: (): Rule => ({
    code: 'needs_age',
    message: { fr: 'ne s’emploie qu’avec age (l’âge des élèves) ; donnez aussi age', en: 'only applies with age (the pupils’ age); give age too' },
  }),
  languageList: (): Rule => ({
    code: 'not_language_list',
    message: { fr: 'doit être un ou plusieurs codes de langue ISO 639-1 séparés par des virgules (fr, en, de…)', en: 'must be one or more ISO 639-1 language codes separated by commas (fr, en, de…)' },
  }),
  tagList: (): Rule => ({
    code: 'not_slug_list',
    message: { fr: 'doit être un ou plusieurs mots-clés séparés par des virgules (lettres minuscules, chiffres et tirets)', en: 'must be one or more tags separated by commas (lowercase letters, digits and hyphens)' },
  }),
  boolean: (): Rule => ({ code: 'not_boolean', message: { fr: 'doit valoir 1, true, 0 ou false', en: 'must be 1, true, 0 or false' } }),
  tooLong: (max: number, has: number): Rule => ({
    code: 'too_long',
    message: { fr: `doit faire au plus ${max} caractères (en a ${has})`, en: `must be at most ${max} characters (has ${has})` },
  }),
  dateTime: (plusSign: boolean): Rule => ({
    code: 'not_date_time',
    message: {
      fr: `doit être une date-heure RFC 3339 avec secondes et fuseau, comme 2026-11-01T00:00:00Z ou 2026-11-01T00:00:00+01:00${plusSign ? ' (un « + » dans une URL s’écrit %2B)' : ''}`,
      en: `must be an RFC 3339 date-time with seconds and a time zone, such as 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+01:00${plusSign ? ' (a "+" in a URL must be sent as %2B)' : ''}`,
    },
  }),
  /** A JSON-RPC parameter (MCP) that is absent or of the wrong JSON type. */
  required: (): Rule => ({ code: 'required', message: { fr: 'est requis', en: 'is required' } }),
  unknownArgument: (tool: string, names: readonly string[]): Rule => ({
    code: 'unknown_argument',
    message: names.length === 0
      ? { fr: `n’est pas un argument de ${tool}, qui n’en prend aucun`, en: `is not an argument of ${tool}, which takes none` }
      : { fr: `n’est pas un argument de ${tool} (arguments : ${names.join(', ')})`, en: `is not an argument of ${tool} (arguments: ${names.join(', ')})` },
  }),
  jsonType: (type: JsonKind | 'object'): Rule => ({ code: 'wrong_type', message: JSON_KINDS[type] }),
  /** The detail of a 400 listing every parameter error. */
  invalidParameters: (errors: ReadonlyArray<{ parameter: string; message: Text }>): Text =>
    both((lang) => errors.map((e) => `${e.parameter} ${e.message[lang]}${e.message[lang].endsWith('?') ? '' : '.'}`).join(' ')),
  noSuchSlug: (what: 'tool' | 'collection', slug: string, suggestions: readonly string[]): Text => {
    const noun = what === 'tool' ? { fr: 'Aucun outil publié', en: 'No published tool' } : { fr: 'Aucune collection publiée', en: 'No published collection' };
    return both((lang) => {
      const has = lang === 'fr' ? `n’a le slug ${quoted(lang, slug)}.` : `has the slug ${quoted(lang, slug)}.`;
      const list = suggestions.map((s) => quoted(lang, s)).join(', ');
      const hint = suggestions.length === 0 ? '' : lang === 'fr' ? ` Vouliez-vous dire ${list} ?` : ` Did you mean ${list}?`;
      return `${noun[lang]} ${has}${hint}`;
    });
  },
  noSuchMedia: (file: string): Text => ({
    fr: `Aucune capture d’écran n’est publiée sous le nom ${quoted('fr', file)}.`,
    en: `No screenshot is published as ${quoted('en', file)}.`,
  }),
  nothingAt: (path: string, prefix: string): Text => ({
    fr: `Rien n’est publié à ${path}. L’API se trouve sous ${prefix}/ (voir ${prefix}/openapi.json).`,
    en: `Nothing is published at ${path}. The API lives under ${prefix}/ (see ${prefix}/openapi.json).`,
  }),
  methodNotAllowed: (method: string): Text => ({
    fr: `${method} n’est pas autorisé ici ; cette API est en lecture seule (GET, HEAD, OPTIONS).`,
    en: `${method} is not allowed here; this API is read-only (GET, HEAD, OPTIONS).`,
  }),
  rateLimited: (limit: number, windowSeconds: number, retryAfter: number): Text => ({
    fr: `Limite de ${limit} requêtes par ${windowSeconds} secondes atteinte ; réessayez dans ${retryAfter} secondes.`,
    en: `Limit of ${limit} requests per ${windowSeconds} seconds reached; retry in ${retryAfter} seconds.`,
  }),
  segmentTooLong: (max: number): Text => ({
    fr: `Un segment du chemin est trop long ; un slug a au plus ${max} caractères.`,
    en: `A path segment is too long; slugs have at most ${max} characters.`,
  }),
  badUrl: (): Text => ({ fr: 'L’URL n’est pas valide (vérifiez son encodage en pourcentage).', en: 'The URL is not valid (check its percent-encoding).' }),
  bodyTooLarge: (): Text => ({ fr: 'Cette API ne prend pas de corps de requête (1 ko au plus).', en: 'This API takes no request body (1 kB at most).' }),
  badRequest: (reason: string): Text => ({ fr: `La requête est invalide (${reason}).`, en: `The request is not valid (${reason}).` }),
  hostHeader: (count: number): Text => ({
    fr: `La requête doit porter exactement un en-tête Host (RFC 9112, section 3.2) ; elle en porte ${count}.`,
    en: `The request must carry exactly one Host header (RFC 9112, section 3.2); it carries ${count}.`,
  }),
  notHttp: (): Text => ({ fr: 'La requête n’est pas du HTTP/1.1 valide.', en: 'The request is not valid HTTP/1.1.' }),
  headersTooLarge: (): Text => ({ fr: 'La ligne de requête et les en-têtes dépassent 16 ko.', en: 'The request line and headers exceed 16 kB.' }),
  timeout: (): Text => ({
    fr: 'La requête n’a pas été reçue à temps : les en-têtes en 5 secondes, la requête entière en 10.',
    en: 'The request was not received in time: headers within 5 seconds, the whole request within 10.',
  }),
  expectation: (expect: string): Text => ({
    fr: `Expect: ${expect} ne peut pas être satisfait ; seul 100-continue est compris.`,
    en: `Expect: ${expect} cannot be met; only 100-continue is understood.`,
  }),
  internal: (requestId: string): Text => ({
    fr: `Une erreur inattendue s’est produite. Citez l’identifiant de requête ${requestId} en la signalant.`,
    en: `An unexpected error occurred. Quote request id ${requestId} when reporting it.`,
  }),
} as const;
