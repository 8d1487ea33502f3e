/**
 * /comparer?outils=a,b,c (issue « Catalogue II », point 6): two to four tools side by side, a
 * column per tool and a row per fact a teacher checks, each with the page that states it and
 * the date that page gives. The rows are the tool page's (tool-facts.ts). A list the page
 * cannot compare (none, one, more than four, twice the same, an unknown address) gets a
 * French page that says what is wrong and how to mend it: 400, or 404 when only addresses
 * are unknown; never kept in the cache.
 */
import type { RawQuery } from '../directory/query-parameters.js';
import { findTool } from '../directory/directory-queries.js';
import { ProblemError } from '../directory/problems.js';
import { closest, visibleText } from '../text/french-text.js';
import { logoHtml, page, type PageContext, type Rendered } from './render.js';
import { decidingFacts, UNKNOWN_FACT } from './tool-facts.js';

export const MIN_COMPARED = 2;
export const MAX_COMPARED = 4;
/** More than this many entries in a URL is no list a person wrote: the rest is not read. */
const MAX_READ = 20;
const MAX_SLUG_SHOWN = 80;

/** /comparer for these slugs, in this order (slugs are [a-z0-9-]: the commas stay readable). */
export const compareHref = (slugs: readonly string[]) => `/comparer?outils=${slugs.map(encodeURIComponent).join(',')}`;

/**
 * The slugs a request asks to compare, in order: `outils=a,b` (a link) or `outils=a&outils=b`
 * (the checkboxes of a form), blank entries left out. Anything else in the query is ignored.
 */
export function comparedSlugs(raw: RawQuery): string[] {
  const v = raw.outils;
  const values = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
  return values
    .slice(0, MAX_READ)
    .flatMap((x) => String(x).split(','))
    .map((x) => visibleText(x).trim().slice(0, 100))
    .filter((x) => x !== '')
    .slice(0, MAX_READ);
}

const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`;
const quoted = (slug: string) => `« ${slug.slice(0, MAX_SLUG_SHOWN)} »`;

export function comparePage(ctx: PageContext, slugs: readonly string[]): Rendered {
  const { model } = ctx;
  const problems: string[] = [];
  const suggestions: Array<{ href: string; name: string }> = [];
  let badRequest = false;

  if (slugs.length === 0) {
    badRequest = true;
    problems.push(`Aucun outil à comparer : cochez de ${MIN_COMPARED} à ${MAX_COMPARED} outils dans la liste des outils, ou donnez leurs adresses (par exemple /comparer?outils=${model.tools.slice(0, 2).map((t) => t.slug).join(',')}).`);
  }
  const seen = new Set<string>();
  for (const slug of slugs) {
    if (seen.has(slug)) {
      badRequest = true;
      const message = `${quoted(slug)} est demandé plusieurs fois : chaque outil n’a qu’une colonne.`;
      if (!problems.includes(message)) problems.push(message);
    }
    seen.add(slug);
  }
  const distinct = [...seen];
  if (slugs.length > MAX_COMPARED) {
    badRequest = true;
    problems.push(`${plural(slugs.length, 'outil')} demandés : on en compare ${MAX_COMPARED} au plus. Retirez-en ${slugs.length - MAX_COMPARED}.`);
  }
  if (distinct.length === 1) badRequest = true;

  // Each address: a published tool, a former address (followed), or unknown.
  const indexes: number[] = [];
  let renamed = false;
  for (const slug of distinct) {
    try {
      const found = findTool(model, slug);
      if (found.renamedTo !== undefined) renamed = true;
      const index = found.index ?? model.toolIndex.get(found.renamedTo!)!;
      if (indexes.includes(index)) {
        badRequest = true;
        problems.push(`${quoted(slug)} et une autre adresse de la liste désignent le même outil (${model.tools[index]!.name}) : chaque outil n’a qu’une colonne.`);
        continue;
      }
      indexes.push(index);
    } catch (err) {
      if (!(err instanceof ProblemError)) throw err;
      problems.push(`Aucun outil publié n’a l’adresse ${quoted(slug)}.`);
      for (const near of closest(slug.slice(0, MAX_SLUG_SHOWN), model.toolIndex.keys(), 2)) {
        if (distinct.includes(near)) continue;
        const replaced = distinct.map((s) => (s === slug ? near : s));
        suggestions.push({ href: replaced.length >= MIN_COMPARED && replaced.length <= MAX_COMPARED ? compareHref(replaced) : `/outils/${near}`, name: `${model.tools[model.toolIndex.get(near)!]!.name} au lieu de ${quoted(slug)}` });
      }
    }
  }
  if (distinct.length === 1 && indexes.length === 1) {
    const only = model.tools[indexes[0]!]!;
    problems.push(`Un seul outil (${only.name}) : choisissez-en au moins un autre à comparer avec lui.`);
    for (const j of model.search.similar(indexes[0]!, 3)) suggestions.push({ href: compareHref([only.slug, model.tools[j]!.slug]), name: `${only.name} et ${model.tools[j]!.name}` });
  }
  if (problems.length > 0) return problemPage(ctx, badRequest ? 400 : 404, problems, suggestions);
  const resolved = indexes.map((i) => model.tools[i]!.slug);
  if (renamed) return { status: 301, html: '', location: compareHref(resolved) };

  const columns = indexes.map((i) => {
    const t = model.tools[i]!;
    const others = resolved.filter((s) => s !== t.slug);
    return { slug: t.slug, name: t.name, logo: logoHtml(model, i), summary: t.short_description, remove: others.length >= MIN_COMPARED ? compareHref(others) : null, ...decidingFacts(model, i) };
  });
  const rows = columns[0]!.facts.map((f, k) => ({ label: f.label, cells: columns.map((c) => c.facts[k]!) }));
  const names = columns.map((c) => c.name);
  const title = `Comparer ${names.slice(0, -1).join(', ')} et ${names[names.length - 1]}`;
  const html = page(ctx, {
    title,
    description: `${names.join(', ')} côte à côte : âge des élèves, compte, IA générative, données, accès GAR/ENT, prix, chaque fait avec sa source.`,
    path: compareHref(resolved),
    section: 'outils',
    breadcrumb: [{ name: 'Accueil', href: '/' }, { name: 'Outils', href: '/outils' }, { name: 'Comparer' }],
    // Every list of two to four tools is a page: none is one a search engine should keep.
    noindex: true,
  }, 'compare', { title, columns, rows, unknown: UNKNOWN_FACT });
  return { status: 200, html };
}

function problemPage(ctx: PageContext, status: 400 | 404, problems: string[], suggestions: Array<{ href: string; name: string }>): Rendered {
  const html = page(ctx, { title: 'Comparaison impossible', description: problems.join(' '), path: '/comparer', noindex: true }, 'compare-problem', {
    problems, suggestions, min: MIN_COMPARED, max: MAX_COMPARED,
  });
  return { status, html };
}
