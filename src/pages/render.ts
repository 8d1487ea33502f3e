/**
 * The catalogue's templates (templates/*.eta, Eta with every value escaped unless a template
 * says otherwise with `<%~`), loaded once per process, and the parts every page shares: the
 * layout's data, a tool card, a logo or its monogram.
 */
import path from 'node:path';
import { Eta } from 'eta';
import { PROJECT_ROOT } from '../config.js';
import type { ReadModel } from '../read-model/read-model.js';
import type { License } from '../directory/representations.js';
import { LOGO_PREFIX } from '../logos/simple-icons.js';
import { PRICING } from './labels.js';

const eta = new Eta({ views: path.join(PROJECT_ROOT, 'src', 'pages', 'templates'), autoEscape: true, cache: true, autoTrim: false });

export const SITE_NAME = 'Annuaire IA & EdTech francophone';

export interface PageContext {
  model: ReadModel;
  /** Absolute base of links (canonical URLs, Open Graph). */
  base: string;
  license: License;
  /** Who publishes the directory: the credit of every page links to its URL, or names it alone when none is configured. */
  publisher: { name: string; url: string | null };
  /** Where screenshots are served from (PUBLIC_MEDIA_URL or /media on the base). */
  media: string;
  css: string;
  js: string;
  icon: string;
}

/** A page as a route sends it: its status and HTML, or where a 301 leads. */
export interface Rendered {
  status: number;
  /** The page, as text or as the bytes to send. */
  html: string | Buffer;
  location?: string;
}

export interface PageMeta {
  title: string;
  description: string;
  /** Path of the canonical URL. */
  path: string;
  section?: 'outils' | 'collections';
  breadcrumb?: Array<{ name: string; href?: string }>;
  jsonLd?: object[];
  alternates?: Array<{ type: string; href: string; title?: string }>;
  image?: string | null;
  ogType?: string;
  script?: boolean;
  noindex?: boolean;
}

const escapeJsonForHtml = (value: object) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export function page(ctx: PageContext, meta: PageMeta, template: string, data: object): string {
  const body = eta.render(template, data);
  const breadcrumbLd = meta.breadcrumb
    ? [{
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: meta.breadcrumb.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, ...(c.href ? { item: `${ctx.base}${c.href}` } : { item: `${ctx.base}${meta.path}` }) })),
      }]
    : [];
  return eta.render('layout', {
    ...meta,
    canonical: `${ctx.base}${meta.path}`,
    jsonLd: [...(meta.jsonLd ?? []), ...breadcrumbLd].map(escapeJsonForHtml),
    body,
    site: { name: SITE_NAME, css: ctx.css, js: ctx.js, icon: ctx.icon, license: ctx.license, publisher: ctx.publisher },
  });
}

/** The tool's logo as served here, or a monogram drawn from its name (never a publisher's image). */
export function logoHtml(model: ReadModel, i: number, large = false): string {
  let drawn = LOGOS.get(model);
  if (drawn === undefined) LOGOS.set(model, (drawn = new Map()));
  const key = large ? -1 - i : i;
  let html = drawn.get(key);
  if (html === undefined) drawn.set(key, (html = drawLogo(model, i, large)));
  return html;
}

/** Per read model, each tool's logo as drawn (a card of every list draws it again otherwise): negative keys for the large one. */
const LOGOS = new WeakMap<ReadModel, Map<number, string>>();

function drawLogo(model: ReadModel, i: number, large: boolean): string {
  const t = model.tools[i]!;
  const cls = large ? 'logo logo-lg' : 'logo';
  const served = model.logos[i];
  if (t.logo_url !== null || served) {
    const src = t.logo_url ?? `${LOGO_PREFIX}${served!.file}`;
    return eta.renderString('<img class="<%= it.cls %>" src="<%= it.src %>" alt="" width="48" height="48" loading="lazy">', { cls, src });
  }
  return monogram(t.slug, t.name, cls);
}

function monogram(slug: string, name: string, cls: string): string {
  const letters = name.replace(/[^\p{L}\p{N} ]/gu, '').split(/\s+/).filter(Boolean).slice(0, 2).map((w) => [...w][0]!.toUpperCase()).join('') || '?';
  let hash = 0;
  for (const c of slug) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  // Dark backgrounds (lightness 30 %): white letters keep a contrast above 4.5:1.
  const hue = hash % 360;
  return eta.renderString(
    '<svg class="<%= it.cls %>" viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false"><rect width="48" height="48" rx="10" fill="hsl(<%= it.hue %>,45%,30%)"/><text x="24" y="31" text-anchor="middle" font-family="system-ui,sans-serif" font-size="18" font-weight="700" fill="#fff"><%= it.letters %></text></svg>',
    { cls, hue, letters },
  );
}

/** A short line of facts under a card: pricing, levels, generative AI, pupil account. */
export function cardFacts(model: ReadModel, i: number): string {
  const t = model.tools[i]!;
  const levels = t.school.levels?.map((l) => model.school.levels.entries[model.school.levels.position.get(l)!]?.label ?? l) ?? [];
  const parts = [PRICING[t.pricing.model]!];
  if (levels.length > 0) parts.push(levels.join(', '));
  if (t.school.generative_ai === 'core') parts.push('IA générative');
  if (t.school.pupil_account === 'none') parts.push('sans compte élève');
  return parts.join(' · ');
}

export function card(model: ReadModel, i: number) {
  return { tool: model.tools[i]!, logo: logoHtml(model, i), facts: cardFacts(model, i) };
}

/**
 * Where a page's template puts its tool cards (`withCards`): a mark no text of a page can hold
 * (every value a request brings is kept visible: catalogue.ts, pageQuery).
 */
export const CARDS_SLOT = '\u0000cards\u0000';

/**
 * A page's HTML with the cards of `tools` in its slot, as bytes. A card (templates/card.eta,
 * its « Comparer » box tied to the form `compareForm`, or to the enclosing one when null)
 * depends on nothing else, so it is drawn and encoded once per read model and form: a
 * never-seen search's page drew 24 cards through the template and encoded its whole 40 KB
 * at every request (~20 % of it).
 */
export function withCards(model: ReadModel, html: string, tools: readonly number[], compareForm: string | null): Buffer {
  const at = html.indexOf(CARDS_SLOT);
  // A template leaves out the slot where there is no card to show (a tool with no close one).
  if (at === -1 && tools.length === 0) return Buffer.from(html);
  if (at === -1) throw new Error('withCards: the template has no cards slot');
  let drawn = CARDS.get(model);
  if (drawn === undefined) CARDS.set(model, (drawn = new Map()));
  const cards: Buffer[] = [];
  let cardBytes = 0;
  for (const i of tools) {
    const key = `${compareForm ?? ''} ${i}`;
    let bytes = drawn.get(key);
    if (bytes === undefined) drawn.set(key, (bytes = Buffer.from(eta.render('card', { ...card(model, i), compare: { form: compareForm } }))));
    cards.push(bytes);
    cardBytes += bytes.length;
  }
  // The text around the slot is encoded straight into the page's one buffer.
  const before = html.slice(0, at);
  const after = html.slice(at + CARDS_SLOT.length);
  const out = Buffer.allocUnsafe(Buffer.byteLength(before) + cardBytes + Buffer.byteLength(after));
  let offset = out.write(before, 0);
  for (const bytes of cards) offset += bytes.copy(out, offset);
  out.write(after, offset);
  return out;
}

const CARDS = new WeakMap<ReadModel, Map<string, Buffer>>();

const frenchDate = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
export const dateFr = (iso: string) => frenchDate.format(new Date(iso));
