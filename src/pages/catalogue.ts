/**
 * The catalogue's pages as functions of (read model, request): every list and fact comes
 * from the query room (`directory/`), the same functions the API and MCP answer from.
 */
import { COLLECTION_KINDS, labelTable } from '../domain.js';
import type { ReadModel } from '../read-model/read-model.js';
import { collectionDetailBody, findTool, toolDetailBody, toolsPageParts } from '../directory/directory-queries.js';
import { ProblemError } from '../directory/problems.js';
import { API_PREFIX } from '../directory/representations.js';
import { closest } from '../text/french-text.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import { listTools } from '../read-model/list-tools.js';
import { FACET_NAMES } from '../read-model/facets.js';

/** The facets the filter panel shows counts for (filters.ts): every one but the tags, which have no menu. */
const PAGE_FACETS = FACET_NAMES.filter((name) => name !== 'tag');
import { parseToolsQuery, type ParsedToolsQuery } from '../directory/tools-query.js';
import type { RawQuery } from '../directory/query-parameters.js';
import { languageName, PLATFORMS } from './labels.js';
import { decidingFacts, UNKNOWN_FACT } from './tool-facts.js';
import { compareHref } from './compare.js';
import { card, CARDS_SLOT, dateFr, logoHtml, page, withCards, type PageContext, type Rendered } from './render.js';
import { panelHtml, activeFilters, sortChoices, titleParts, type FilterValues } from './filters.js';
import { appliedReading } from './applied-reading.js';
import { foldFrench, visibleText } from '../text/french-text.js';

export type { Rendered } from './render.js';

const KIND_LABEL: Record<string, string> = labelTable({ created: 'ajouté', updated: 'mis à jour', unpublished: 'retiré', republished: 'de retour', renamed: 'renommé' });

export function homePage(ctx: PageContext): Rendered {
  const { model } = ctx;
  const levels = model.school.levels.entries.map((e) => ({ slug: e.slug, label: e.label, count: model.school.sets.level.get(e.slug)?.count() ?? 0 })).filter((v) => v.count > 0);
  const subjects = model.school.subjects.entries.map((e) => ({ slug: e.slug, label: e.label, count: model.school.sets.subject.get(e.slug)?.count() ?? 0 })).filter((v) => v.count > 0);
  const categories = model.categories.filter((c) => c.toolCount > 0).map((c) => ({ slug: c.record.slug, label: c.record.name, count: c.toolCount }));
  const collections = model.collections.filter((c) => c.record.kind === 'top').slice(0, 9).map((c) => ({ slug: c.record.slug, title: c.record.title, description: c.record.description, count: c.items.length }));
  // The first import created every tool at once: it is no news. What came after it is.
  const first = model.changes[0]?.revision;
  const changes = model.changes.filter((c) => c.revision !== first).slice(-12).reverse().map((c) => ({
    at: c.at, date: dateFr(c.at), name: c.tool.name, kind: KIND_LABEL[c.kind]!, href: model.toolIndex.has(c.slug) ? `/outils/${c.slug}` : null,
  }));
  const html = page(ctx, {
    title: 'Outils d’IA et numériques pour l’école',
    description: `${model.tools.length} outils d’IA et numériques pour l’éducation francophone, avec les niveaux, disciplines, âge et compte des élèves, données et accès GAR/ENT.`,
    path: '/',
    jsonLd: [{ '@context': 'https://schema.org', '@type': 'WebSite', name: 'Annuaire IA & EdTech francophone', url: `${ctx.base}/`, potentialAction: { '@type': 'SearchAction', target: `${ctx.base}/outils?q={q}`, 'query-input': 'required name=q' } }],
    alternates: [{ type: 'application/atom+xml', href: `${API_PREFIX}/feed.atom`, title: 'Derniers changements de l’annuaire' }],
  }, 'home', { counts: { tools: model.tools.length }, levels, subjects, categories, collections, changes });
  return { status: 200, html };
}

const TOOLS_PER_PAGE = { perPage: 24, maxPerPage: 48 };

/**
 * The parameters /outils reads, in the order its links write them. Anything else in a URL
 * (`updated_since`, `facets`, a cache buster) is ignored, the same way every time: it is not
 * part of the page, nor of the key it is kept under.
 */
const PAGE_PARAMETERS = [
  'q', 'level', 'subject', 'include_transversal', 'category', 'pricing', 'age', 'for_pupils', 'pupil_use', 'pupil_account', 'generative_ai',
  'trains_on_user_data', 'data_location', 'institutional_access', 'offline', 'open_source', 'has_education_pricing', 'platform',
  'language', 'tag', 'sort', 'page', 'per_page',
] as const;

/**
 * What /outils reads of a request's query: its own parameters only, each value as a person
 * may see it back (no control, bidirectional or zero-width character: visibleText), blank
 * ones left out. A parameter given twice stays a list, which the query room refuses.
 */
export function pageQuery(raw: RawQuery): RawQuery {
  const out: RawQuery = {};
  for (const name of PAGE_PARAMETERS) {
    const v = raw[name];
    if (typeof v === 'string') {
      const clean = visibleText(v);
      if (clean !== '') out[name] = clean;
    } else if (Array.isArray(v)) {
      out[name] = v.map(visibleText);
    }
  }
  return out;
}

/** The key a page of /outils is kept under: exactly what pageQuery kept, in one order. */
export function pageQueryKey(query: RawQuery): string {
  const params = new URLSearchParams();
  for (const name of PAGE_PARAMETERS) {
    const v = query[name];
    if (typeof v === 'string') params.append(name, v);
    else if (Array.isArray(v)) for (const item of v) params.append(name, item);
  }
  return params.toString();
}

/** /outils for a query already read by pageQuery. */
export function toolsListPage(ctx: PageContext, raw: RawQuery): Rendered {
  const { model } = ctx;
  let query: ParsedToolsQuery | null = null;
  let errors: string[] = [];
  // What the search reads in the sentence becomes the page's filters (applied-reading.ts).
  const typed = filterValues(raw);
  const values = appliedReading(model, typed) ?? typed;
  // Who uses it (`for_pupils`) says something only of an age: without one, it is set aside, not refused.
  if (values.for_pupils !== undefined && !values.age) delete values.for_pupils;
  try {
    query = { ...parseToolsQuery(values as RawQuery, model.school, TOOLS_PER_PAGE), facets: PAGE_FACETS };
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    errors = (err.extras.errors ?? []).map((e) => `${e.parameter} ${e.rule.message.fr}`);
  }
  // Aliases (`6e`, `hg`) read as the slugs they stand for, so the panel shows the choice.
  for (const name of ['level', 'subject'] as const) {
    const slugs = query?.school?.values[name];
    if (slugs) values[name] = slugs.join(',');
  }
  // The page's tools as read-model indices: the cards read the model, not the API's summaries.
  const body = query ? toolsPageParts(model, query, ctx.base, ctx.license) : null;
  const total = body?.meta.total ?? 0;
  const pages = body?.meta.total_pages ?? 0;
  const pageNumber = query?.page ?? 1;
  const href = (changes: Partial<FilterValues>) => toolsHref({ ...values, ...changes });
  // A page past the last one is no page: a 404 that leads back to the first.
  if (query && pageNumber > Math.max(1, pages)) {
    return notFoundPage(ctx, `Cette recherche n’a que ${pages} page${pages > 1 ? 's' : ''} de résultats.`, null, [{ href: href({ page: undefined }), name: 'La première page de cette recherche' }]);
  }
  const filters = activeFilters(model, values);
  // The age's chip says who uses it too (filters.ts): removing it removes both.
  const without = (name: string): Partial<FilterValues> => (name === 'age' ? { age: undefined, for_pupils: undefined } : { [name]: undefined });
  const active = filters.map((a) => ({ label: a.label, remove: href(without(a.name)) }));
  // An empty result says why, and which one filter to drop gives the most tools.
  let empty: { why: string; drop: null | { href: string; label: string; count: number } } & Partial<WaysOut> = { why: '', drop: null };
  if (query && total === 0) {
    const dropped = filters
      .map((a) => {
        const rest = { ...values, ...without(a.name) };
        try {
          const q = parseToolsQuery(rest as RawQuery, model.school, TOOLS_PER_PAGE);
          return { href: toolsHref(rest), label: a.label, count: listTools(model, q).total };
        } catch {
          return null;
        }
      })
      .filter((d): d is NonNullable<typeof d> => d !== null && d.count > 0)
      .sort((a, b) => b.count - a.count)[0];
    const searchOnly = filters.length === 1 && filters[0]!.name === 'q';
    empty = {
      why: searchOnly || filters.length === 0 ? 'Aucun outil ne correspond à cette recherche : essayez d’autres mots, ou décrivez le besoin autrement.' : 'Aucun outil ne remplit toutes ces conditions à la fois.',
      drop: dropped ?? null,
      ...(values.q || typed.q ? waysOut(model, values, typed.q ?? '', namedIn(model, typed.q)) : { shorter: null, collections: [], named: [] }),
    };
  }
  const understood = body?.meta.query;
  const chips = understood
    ? [...understood.similar_to.map((t) => `comme ${t.name}`), ...understood.subject.map((s) => s.label), ...understood.level.map((l) => l.label), ...(understood.free ? ['gratuit'] : []), ...understood.facts.map((f) => f.label)]
    : [];
  // Titled by what it shows: « Quiz · École élémentaire · sans compte personnel ».
  const shown = titleParts(values, filters);
  const heading = shown.length > 0 ? shown.join(' · ') : 'Tous les outils';
  const html = page(ctx, {
    title: shown.length > 0 ? `Outils : ${heading}` : 'Tous les outils',
    description: `Chercher et filtrer ${model.tools.length} outils d’IA et numériques par niveau, discipline, âge des élèves, compte, IA générative, données et accès GAR/ENT.`,
    path: `/outils${pageNumber > 1 || active.length > 0 ? toolsHref(values).slice('/outils'.length) : ''}`,
    section: 'outils',
    breadcrumb: [{ name: 'Accueil', href: '/' }, { name: 'Outils' }],
    script: true,
    // Any searched, filtered, sorted or later page is a variant of /outils: not indexed.
    noindex: Object.keys(raw).length > 0,
  }, 'tools', {
    heading, q: values.q ?? '', errors, active, total, empty,
    activeCount: filters.filter((f) => f.name !== 'q').length,
    understood: chips.length > 0 ? chips.join(' · ') : null,
    panel: panelHtml(model, values, body?.meta.facets),
    sort: sortChoices(values),
    cardsSlot: CARDS_SLOT, cardCount: body?.items.length ?? 0,
    page: pageNumber, pages,
    prev: pageNumber > 1 && pageNumber <= pages ? href({ page: String(pageNumber - 1) }) : null,
    next: pageNumber < pages ? href({ page: String(pageNumber + 1) }) : null,
  });
  return { status: errors.length > 0 ? 400 : 200, html: withCards(model, html, body?.items ?? [], 'comparer') };
}

/** Folded word → the collections whose title, slug or description say it (in the model's order): built once per read model, not per empty search. */
const COLLECTION_WORDS = new WeakMap<ReadModel, Map<string, number[]>>();
function collectionWords(model: ReadModel): Map<string, number[]> {
  let words = COLLECTION_WORDS.get(model);
  if (words === undefined) {
    words = new Map();
    for (const [ci, c] of model.collections.entries()) {
      for (const w of new Set(foldFrench(`${c.record.title} ${c.record.slug.replaceAll('-', ' ')} ${c.record.description}`).split(' '))) {
        const list = words.get(w);
        if (list === undefined) words.set(w, [ci]);
        else list.push(ci);
      }
    }
    COLLECTION_WORDS.set(model, words);
  }
  return words;
}

/** The levels and subjects a typed search names, with their labels: what a dead end offers to list whole. */
function namedIn(model: ReadModel, q: string | undefined) {
  const u = q ? model.search.understand(q) : null;
  const labelled = (slugs: readonly string[], index: VocabularyIndex) => slugs.map((slug) => ({ slug, label: index.entries[index.position.get(slug) ?? -1]?.label ?? slug }));
  return { level: labelled(u?.levels ?? [], model.school.levels), subject: labelled(u?.subjects ?? [], model.school.subjects) };
}

/** The catalogue's parameters, as the URL gives them (the API's names). */
function filterValues(raw: RawQuery): FilterValues {
  const out: FilterValues = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim().slice(0, 200);
  return out;
}

/** `/outils?…` with the given values, in a stable order, without empty ones. */
export function toolsHref(values: FilterValues): string {
  const params = new URLSearchParams();
  for (const key of PAGE_PARAMETERS) {
    const v = values[key];
    if (v !== undefined && v !== '' && !(key === 'page' && v === '1')) params.set(key, v);
  }
  const s = params.toString();
  return `/outils${s ? `?${s}` : ''}`;
}

export function toolPage(ctx: PageContext, slug: string): Rendered {
  const { model } = ctx;
  let found;
  try {
    found = findTool(model, slug);
  } catch (err) {
    if (err instanceof ProblemError) return notFoundPage(ctx, `Aucun outil publié n’a l’adresse « ${slug.slice(0, 80)} ».`, slug);
    throw err;
  }
  if (found.renamedTo !== undefined) return { status: 301, html: '', location: `/outils/${found.renamedTo}` };
  const i = found.index;
  const tool = toolDetailBody(model, i, ctx.base, ctx.license, ctx.media).data;
  const deciding = decidingFacts(model, i);
  // The same measure as a search for alternatives to it (`alternative à …`): docs/search.md.
  const near = model.search.similar(i, 6);
  const compareWith = near.slice(0, 2).map((j) => model.tools[j]!);
  const html = page(ctx, {
    title: tool.name,
    description: tool.short_description,
    path: `/outils/${tool.slug}`,
    section: 'outils',
    ogType: 'article',
    image: tool.logo_url,
    breadcrumb: [{ name: 'Accueil', href: '/' }, { name: 'Outils', href: '/outils' }, { name: tool.name }],
    alternates: [{ type: 'application/json', href: tool.links.self }],
    jsonLd: [{
      '@context': 'https://schema.org',
      '@type': 'SoftwareApplication',
      name: tool.name,
      description: tool.short_description,
      url: tool.website_url,
      applicationCategory: 'EducationalApplication',
      operatingSystem: tool.platforms.map((p) => PLATFORMS[p] ?? p).join(', '),
      inLanguage: tool.languages,
      ...(tool.logo_url ? { image: tool.logo_url } : {}),
      ...(tool.pricing === 'free' ? { offers: { '@type': 'Offer', price: 0, priceCurrency: 'EUR' } } : {}),
      dateModified: tool.freshness.updated_at,
    }],
  }, 'tool', {
    tool,
    logo: logoHtml(model, i, true),
    paragraphs: tool.long_description.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean),
    ...deciding,
    unknown: UNKNOWN_FACT,
    rulesHref: `${API_PREFIX}/rules`,
    compareWith: compareWith.length > 0 ? { href: compareHref([tool.slug, ...compareWith.map((t) => t.slug)]), names: compareWith.map((t) => t.name).join(' et ') } : null,
    platforms: tool.platforms.map((p) => PLATFORMS[p] ?? p).join(', ') || UNKNOWN_FACT,
    languages: tool.languages.map(languageName).join(', '),
    collections: tool.collections,
    similarCount: near.length, cardsSlot: CARDS_SLOT,
    updated: dateFr(tool.freshness.updated_at),
    json: tool.links.self,
  });
  return { status: 200, html: withCards(model, html, near, null) };
}

export function collectionsPage(ctx: PageContext): Rendered {
  const { model } = ctx;
  const groups = COLLECTION_KINDS.map((kind) => ({
    id: kind === 'top' ? 'par-tache' : 'par-metier',
    short: kind === 'top' ? 'Par tâche' : 'Par métier ou public',
    title: kind === 'top' ? 'Les meilleurs outils pour une tâche' : 'La boîte à outils d’un métier ou d’une classe',
    items: model.collections.filter((c) => c.record.kind === kind).map((c) => ({ slug: c.record.slug, title: c.record.title, description: c.record.description, count: c.items.length })),
  }));
  const html = page(ctx, {
    title: 'Sélections de la rédaction',
    description: 'Les meilleurs outils pour une tâche et la boîte à outils d’un métier, choisis et commentés pour les enseignants.',
    path: '/collections',
    section: 'collections',
    breadcrumb: [{ name: 'Accueil', href: '/' }, { name: 'Sélections' }],
    jsonLd: [{
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: 'Sélections de la rédaction',
      itemListElement: groups.flatMap((g) => g.items).map((c, k) => ({ '@type': 'ListItem', position: k + 1, name: c.title, url: `${ctx.base}/collections/${c.slug}` })),
    }],
  }, 'collections', { groups });
  return { status: 200, html };
}

export function collectionPage(ctx: PageContext, slug: string): Rendered {
  const { model } = ctx;
  const index = model.collectionIndex.get(slug);
  if (index === undefined) {
    const near = closest(slug.slice(0, 80), model.collectionIndex.keys(), 3);
    return notFoundPage(ctx, `Aucune sélection publiée n’a l’adresse « ${slug.slice(0, 80)} ».`, null, near.map((s) => ({ href: `/collections/${s}`, name: model.collections[model.collectionIndex.get(s)!]!.record.title })));
  }
  const body = collectionDetailBody(model, index, ctx.base, ctx.license).data;
  const view = model.collections[index]!;
  const items = view.items.map((item) => ({
    slug: model.tools[item.tool]!.slug, name: model.tools[item.tool]!.name, note: item.note, logo: logoHtml(model, item.tool), facts: card(model, item.tool).facts,
  }));
  const html = page(ctx, {
    title: body.title,
    description: body.description,
    path: `/collections/${body.slug}`,
    section: 'collections',
    breadcrumb: [{ name: 'Accueil', href: '/' }, { name: 'Sélections', href: '/collections' }, { name: body.title }],
    jsonLd: [{
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: body.title,
      description: body.description,
      itemListOrder: 'https://schema.org/ItemListOrderAscending',
      itemListElement: items.map((it, k) => ({ '@type': 'ListItem', position: k + 1, name: it.name, url: `${ctx.base}/outils/${it.slug}` })),
    }],
    alternates: [{ type: 'application/json', href: body.links.self }],
  }, 'collection', { collection: body, items });
  return { status: 200, html };
}

export function notFoundPage(ctx: PageContext, message: string, slug: string | null, suggestions?: Array<{ href: string; name: string }>): Rendered {
  const { model } = ctx;
  const near = suggestions ?? (slug ? closest(slug.slice(0, 80), model.toolIndex.keys(), 3).map((s) => ({ href: `/outils/${s}`, name: model.tools[model.toolIndex.get(s)!]!.name })) : []);
  const html = page(ctx, { title: 'Page introuvable', description: message, path: '/404', noindex: true }, 'not-found', { message, suggestions: near });
  return { status: 404, html };
}

export function logosPage(ctx: PageContext): Rendered {
  const { model } = ctx;
  const logos = model.tools.flatMap((t, i) => {
    const l = model.logos[i];
    return l ? [{ slug: t.slug, name: t.name, icon: l.icon.title, license: l.icon.license }] : [];
  });
  const html = page(ctx, { title: 'Logos et licences', description: 'D’où viennent les logos du catalogue, et sous quelle licence.', path: '/a-propos/logos' }, 'logos', { logos, license: ctx.license });
  return { status: 200, html };
}

/** Past the pages' budget: a 429 page in French (routes.ts sends it with Retry-After). */
export function rateLimitedPage(ctx: PageContext, limit: number, retryAfterSeconds: number): Rendered {
  const message = `Trop de pages demandées depuis votre adresse : plus de ${limit} en une minute. Réessayez dans ${retryAfterSeconds} seconde${retryAfterSeconds > 1 ? 's' : ''}.`;
  const html = page(ctx, { title: 'Trop de pages en une minute', description: message, path: '/', noindex: true }, 'rate-limited', { message, seconds: retryAfterSeconds });
  return { status: 429, html };
}

interface WaysOut {
  /** The same search without the one word that empties it, with what it finds. */
  shorter: { href: string; q: string; count: number } | null;
  /** Selections whose title or description says a word of the search (ULIS, SEGPA, dys…). */
  collections: Array<{ href: string; title: string }>;
  /** The levels and subjects the search named, as lists of their own. */
  named: Array<{ href: string; label: string }>;
}

/** What would find something when a search finds nothing: never a dead end. */
function waysOut(model: ReadModel, values: FilterValues, typed: string, understood: { level: Array<{ slug: string; label: string }>; subject: Array<{ slug: string; label: string }> } | undefined): WaysOut {
  const words = (values.q ?? '').split(/\s+/).filter((w) => w !== '');
  let shorter: WaysOut['shorter'] = null;
  if (words.length > 1) {
    for (let k = 0; k < words.length && k < 8; k++) {
      const rest = words.filter((_, j) => j !== k).join(' ');
      try {
        const count = listTools(model, parseToolsQuery({ ...values, q: rest, page: undefined } as RawQuery, model.school, TOOLS_PER_PAGE)).total;
        if (count > 0 && (shorter === null || count > shorter.count)) shorter = { href: toolsHref({ ...values, q: rest, page: undefined }), q: rest, count };
      } catch {
        // a query the room refuses offers nothing
      }
    }
  }
  const saying = collectionWords(model);
  const matched = new Set(foldFrench(typed).split(' ').filter((w) => w.length >= 3).flatMap((w) => saying.get(w) ?? []));
  const collections = [...matched]
    .sort((a, b) => a - b)
    .slice(0, 4)
    .map((ci) => ({ href: `/collections/${model.collections[ci]!.record.slug}`, title: model.collections[ci]!.record.title }));
  const named = [
    ...(understood?.level ?? []).map((l) => ({ href: toolsHref({ level: l.slug }), label: l.label })),
    ...(understood?.subject ?? []).map((s) => ({ href: toolsHref({ subject: s.slug }), label: s.label })),
  ];
  return { shorter, collections, named };
}
