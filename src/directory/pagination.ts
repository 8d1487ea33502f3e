/** Links of a paginated list (GET /tools, GET /changes): in the body and, the same, in the Link header. */

export interface PageLinks {
  self: string;
  first: string;
  prev: string | null;
  next: string | null;
  last: string;
}

/**
 * The list's links, built from `url(page)` (absolute and canonical), so that following
 * `next` to the end visits every page once. Past the end, `prev` leads back to the last page.
 */
export function pageLinks(url: (page: number) => string, page: number, totalPages: number): PageLinks {
  return {
    self: url(page),
    first: url(1),
    prev: page > 1 ? url(Math.min(page - 1, Math.max(totalPages, 1))) : null,
    next: page < totalPages ? url(page + 1) : null,
    last: url(Math.max(totalPages, 1)),
  };
}

/** RFC 8288 `Link`: the licence first, then the page links that exist, then `extra` entries. */
export function linkHeader(licenseLink: string, links: PageLinks, extra: readonly string[] = []): string {
  return [licenseLink, ...Object.entries(links).flatMap(([rel, href]) => (href === null ? [] : [`<${href}>; rel="${rel}"`])), ...extra].join(', ');
}
