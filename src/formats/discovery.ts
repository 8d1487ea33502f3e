/**
 * Where a client or a person finds the feeds and bulk exports: one list, used by the
 * `Link` header of GET /tools and meant for the HTML home page (`<link rel="alternate">`
 * there gives feed discovery).
 */
import { API_PREFIX } from '../directory/representations.js';

export interface DiscoveryLink {
  /** Under the base URL. */
  path: string;
  /** RFC 8288 relation: `alternate` for the feeds and exports, `describedby` for the data package. */
  rel: 'alternate' | 'describedby';
  type: string;
  /** French, for people (a home page); not sent in headers, which must stay ASCII. */
  title: string;
}

export const FEED_ATOM_PATH = `${API_PREFIX}/feed.atom`;
export const FEED_JSON_PATH = `${API_PREFIX}/feed.json`;
export const CHANGES_PATH = `${API_PREFIX}/changes`;
export const EXPORT_NDJSON_PATH = `${API_PREFIX}/export/tools.ndjson`;
export const EXPORT_CSV_PATH = `${API_PREFIX}/export/tools.csv`;
export const DATAPACKAGE_PATH = `${API_PREFIX}/datapackage.json`;

export const ATOM_TYPE = 'application/atom+xml';
export const JSON_FEED_TYPE = 'application/feed+json';
export const NDJSON_TYPE = 'application/x-ndjson';
export const CSV_TYPE = 'text/csv';

export const DISCOVERY_LINKS: readonly DiscoveryLink[] = [
  { path: FEED_ATOM_PATH, rel: 'alternate', type: ATOM_TYPE, title: 'Derniers changements de l’annuaire (Atom)' },
  { path: FEED_JSON_PATH, rel: 'alternate', type: JSON_FEED_TYPE, title: 'Derniers changements de l’annuaire (JSON Feed)' },
  { path: EXPORT_CSV_PATH, rel: 'alternate', type: CSV_TYPE, title: 'Tous les outils, un par ligne (CSV pour tableur)' },
  { path: EXPORT_NDJSON_PATH, rel: 'alternate', type: NDJSON_TYPE, title: 'Tous les outils en détail (NDJSON)' },
  { path: DATAPACKAGE_PATH, rel: 'describedby', type: 'application/json', title: 'Description des exports (Frictionless Data Package)' },
];

/** The `Link` header entries for the feeds and exports, with absolute URLs. */
export function discoveryLinkEntries(base: string): string[] {
  return DISCOVERY_LINKS.map((l) => `<${base}${l.path}>; rel="${l.rel}"; type="${l.type}"`);
}
