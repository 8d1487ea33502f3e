/** /sitemap.xml (every page a search engine may index) and /robots.txt. */
import type { PageContext } from './render.js';

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function sitemapXml(ctx: PageContext): string {
  const { model, base } = ctx;
  const latest = model.tools.reduce((m, t) => (t.updated_at > m ? t.updated_at : m), '1970-01-01T00:00:00Z');
  const urls: Array<[string, string]> = [
    ['/', latest],
    ['/outils', latest],
    ['/collections', latest],
    ...model.tools.map((t) => [`/outils/${t.slug}`, t.updated_at] as [string, string]),
    ...model.collections.map((c) => [`/collections/${c.record.slug}`, c.record.updated_at] as [string, string]),
  ];
  const body = urls.map(([p, at]) => `<url><loc>${xmlEscape(`${base}${p}`)}</loc><lastmod>${at}</lastmod></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function robotsTxt(base: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /mcp\n\nSitemap: ${base}/sitemap.xml\n`;
}
