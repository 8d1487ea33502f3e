/**
 * The change feeds: JSON Feed 1.1 and Atom 1.0 (RFC 4287) of the 50 latest changes, newest
 * first, one entry per change (not per tool). Feed readers and automation tools (n8n's RSS
 * trigger, Zapier) de-duplicate by entry id and key on the entry's date, so each change
 * has an id of its own and its own date: an update shows up as new. Both feeds are built
 * from the same entries, once per revision and base URL (the response cache).
 *
 * Ids are tag: URIs (RFC 4151) on the publisher's host and the change's date, not on the
 * request's base URL: the same change has the same id from every instance and host name.
 */
import fastJson from 'fast-json-stringify';
import { create } from 'xmlbuilder2';
import { PRICING_LABELS, type ChangeKind, type ToolChange } from '../domain.js';
import type { ReadModel } from '../read-model/read-model.js';
import { JsonFeed } from '../schemas/feeds.js';
import { FEED_ATOM_PATH, FEED_JSON_PATH, ATOM_TYPE } from './discovery.js';
import { API_PREFIX, publisherHome, TOOL_PAGE_PREFIX, type License } from '../directory/representations.js';

export const FEED_SIZE = 50;
const ATOM_NS = 'http://www.w3.org/2005/Atom';

export interface FeedContext {
  base: string;
  license: License;
  publisher: { name: string; url: string | null };
}

const TITLES: Record<ChangeKind, string> = {
  created: 'Nouvel outil',
  updated: 'Mise à jour',
  unpublished: 'Retiré de l’annuaire',
  republished: 'De retour dans l’annuaire',
  renamed: 'Nouvelle adresse',
};

interface FeedEntry {
  change: ToolChange;
  id: string;
  title: string;
  /** The tool in the API; null once it is unpublished (the URL would be a 404). */
  apiUrl: string | null;
  /** The tool's page in the catalogue, for people; null once unpublished. */
  pageUrl: string | null;
  summary: string;
  content: string;
  pricingLabel: string;
}

/** `tag:<publisher host>,<YYYY-MM-DD>:<path>`: on that date the publisher held its host name. */
function tagUri(ctx: FeedContext, date: string, path: string): string {
  return `tag:${ctx.publisher.url ? new URL(ctx.publisher.url).hostname : UNCONFIGURED_TAG_HOST},${date.slice(0, 10)}:${path}`;
}

/**
 * The host of ids where no PUBLISHER_URL nor PUBLIC_BASE_URL is set: never the request's
 * (ids must not change with a Host header), and the one such instances minted ids on before,
 * so a reader does not see every entry anew. It is in no link and no credit.
 */
const UNCONFIGURED_TAG_HOST = 'example.org';

function feedEntries(model: ReadModel, ctx: FeedContext): FeedEntry[] {
  const latest = model.changes.slice(-FEED_SIZE).reverse();
  return latest.map((change) => {
    const { tool } = change;
    const pricingLabel = PRICING_LABELS[tool.pricing];
    const renamed = change.kind === 'renamed' ? ` (${change.previous_slug} → ${change.slug})` : '';
    const lead = change.kind === 'unpublished' ? `${tool.name} n’est plus publié dans l’annuaire.\n\n` : '';
    return {
      change,
      id: tagUri(ctx, change.at, `${API_PREFIX}/changes/${change.revision}/${change.slug}`),
      title: `${TITLES[change.kind]} : ${tool.name}${renamed}`,
      apiUrl: change.kind === 'unpublished' ? null : `${ctx.base}${API_PREFIX}/tools/${change.slug}`,
      pageUrl: change.kind === 'unpublished' ? null : `${ctx.base}${TOOL_PAGE_PREFIX}${change.slug}`,
      summary: tool.short_description,
      content: `${lead}${tool.short_description}\n\nCatégorie : ${tool.category.name} · Tarif : ${pricingLabel}\nSite : ${tool.website_url}`,
      pricingLabel,
    };
  });
}

/** The newest change's instant, or the epoch when the log is empty (never the clock: the bytes must not depend on when they were built). */
const updatedOf = (entries: FeedEntry[]) => entries[0]?.change.at ?? '1970-01-01T00:00:00Z';
const feedTitle = (ctx: FeedContext) => `${ctx.publisher.name} — derniers changements`;
const feedDescription = (ctx: FeedContext) =>
  `Les ${FEED_SIZE} derniers changements des outils publiés (nouveaux, mis à jour, retirés, renommés), du plus récent au plus ancien. ` +
  `Données sous licence ${ctx.license.name} (${ctx.license.url}) : ${ctx.license.attribution}.`;

const serializeJsonFeed = fastJson(JsonFeed);

export function jsonFeed(model: ReadModel, ctx: FeedContext): string {
  return serializeJsonFeed({
    version: 'https://jsonfeed.org/version/1.1',
    title: feedTitle(ctx),
    home_page_url: publisherHome(ctx.publisher, ctx.base),
    feed_url: `${ctx.base}${FEED_JSON_PATH}`,
    description: feedDescription(ctx),
    language: 'fr',
    authors: [{ name: ctx.publisher.name, url: publisherHome(ctx.publisher, ctx.base) }],
    _license: ctx.license,
    items: feedEntries(model, ctx).map((e) => ({
      id: e.id,
      ...(e.pageUrl === null ? {} : { url: e.pageUrl }),
      external_url: e.change.tool.website_url,
      title: e.title,
      summary: e.summary,
      content_text: e.content,
      date_published: e.change.at,
      date_modified: e.change.at,
      tags: [e.change.tool.category.name, e.pricingLabel],
      _change: {
        kind: e.change.kind,
        slug: e.change.slug,
        previous_slug: e.change.previous_slug,
        revision: e.change.revision,
        category: e.change.tool.category,
        pricing: e.change.tool.pricing,
        api_url: e.apiUrl,
      },
    })),
  });
}

/**
 * Atom 1.0, written with an XML library so every text and attribute is escaped. Each entry
 * has `published` = `updated` = the change's instant: rss-parser (n8n's RSS trigger) reads
 * `published` first, so an entry must never keep an older one.
 */
export function atomFeed(model: ReadModel, ctx: FeedContext): string {
  const entries = feedEntries(model, ctx);
  const oldest = model.changes[0]?.at ?? updatedOf(entries);
  const feed = create({ version: '1.0', encoding: 'utf-8' }).ele(ATOM_NS, 'feed', { 'xml:lang': 'fr' });
  feed.ele('id').txt(tagUri(ctx, oldest, FEED_ATOM_PATH));
  feed.ele('title').txt(feedTitle(ctx));
  feed.ele('subtitle').txt(feedDescription(ctx));
  feed.ele('updated').txt(updatedOf(entries));
  feed.ele('author').ele('name').txt(ctx.publisher.name).up().ele('uri').txt(publisherHome(ctx.publisher, ctx.base));
  feed.ele('link', { rel: 'self', type: ATOM_TYPE, href: `${ctx.base}${FEED_ATOM_PATH}` });
  feed.ele('link', { rel: 'alternate', type: 'text/html', href: publisherHome(ctx.publisher, ctx.base) });
  // RFC 4946: the licence of the feed's content.
  feed.ele('link', { rel: 'license', href: ctx.license.url });
  feed.ele('rights').txt(`${ctx.license.name} — ${ctx.license.attribution}`);
  for (const e of entries) {
    const entry = feed.ele('entry');
    entry.ele('id').txt(e.id);
    entry.ele('title').txt(e.title);
    entry.ele('published').txt(e.change.at);
    entry.ele('updated').txt(e.change.at);
    // For people, the tool's page; for programs, the same tool in the API.
    if (e.pageUrl !== null) entry.ele('link', { rel: 'alternate', type: 'text/html', href: e.pageUrl });
    if (e.apiUrl !== null) entry.ele('link', { rel: 'alternate', type: 'application/json', href: e.apiUrl });
    entry.ele('link', { rel: 'related', type: 'text/html', href: e.change.tool.website_url });
    entry.ele('summary').txt(e.summary);
    entry.ele('content', { type: 'text' }).txt(e.content);
    const { category } = e.change.tool;
    entry.ele('category', { term: category.slug, label: category.name, scheme: `${ctx.base}${API_PREFIX}/categories` });
    entry.ele('category', { term: e.change.tool.pricing, label: e.pricingLabel });
  }
  return feed.end({ prettyPrint: true });
}
