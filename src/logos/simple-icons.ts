/**
 * Logos the directory may serve itself (never a publisher's image hot-linked): the icons of
 * the `simple-icons` package (CC0 1.0 as a package) whose own licence data, where it has any,
 * allows reuse with attribution; an icon is matched to a tool by its exact name, or by its
 * slug (hyphens aside). Each is served from this server, coloured with the brand's colour,
 * under a name fingerprinted by its content. The attribution page lists every one.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { foldFrench } from '../text/french-text.js';

export const LOGO_PREFIX = '/logos/';

export interface ServedLogo {
  /** `<tool slug>.<hash>.svg` under LOGO_PREFIX. */
  file: string;
  svg: Buffer;
  icon: { title: string; slug: string; license: string };
}

interface IconData {
  title: string;
  slug?: string;
  hex: string;
  license?: { type: string };
}

/** Licences that allow showing the icon with attribution; NC, ND and custom terms do not. */
const ALLOWED = /^(CC0-1\.0|MIT|Apache-2\.0|BSD-[23]-Clause|CC-BY-[234]\.[05]|CC-BY-SA-[234]\.[05]|Unlicense|MPL-2\.0|(A?GPL|LGPL)-[23]\.0-(only|or-later))$/;

let catalogue: { dir: string; byKey: Map<string, IconData & { slug: string }> } | null | undefined;

/** The package's icon data, read once per process; null when the package is not installed. */
function iconCatalogue() {
  if (catalogue !== undefined) return catalogue;
  try {
    const require = createRequire(import.meta.url);
    // The package exports no package.json: its main file sits at its root.
    const dir = path.dirname(require.resolve('simple-icons'));
    const raw = JSON.parse(readFileSync(path.join(dir, 'data', 'simple-icons.json'), 'utf8')) as IconData[] | { icons: IconData[] };
    const icons = Array.isArray(raw) ? raw : raw.icons;
    const byKey = new Map<string, IconData & { slug: string }>();
    for (const icon of icons) {
      if (icon.license && !ALLOWED.test(icon.license.type)) continue;
      const slug = icon.slug ?? slugOfTitle(icon.title);
      const entry = { ...icon, slug };
      byKey.set(`t:${foldFrench(icon.title)}`, entry);
      byKey.set(`s:${slug}`, entry);
    }
    catalogue = { dir, byKey };
  } catch {
    catalogue = null;
  }
  return catalogue;
}

/** simple-icons' own rule for a slug from a title, for the entries that give none. */
function slugOfTitle(title: string): string {
  return foldFrench(title.replace(/\+/g, 'plus').replace(/\./g, 'dot').replace(/&/g, 'and')).replace(/[^a-z0-9]/g, '');
}

/** The logo served for a tool, or null (a monogram then stands in). */
export function logoFor(tool: { slug: string; name: string }): ServedLogo | null {
  const icons = iconCatalogue();
  if (!icons) return null;
  const icon = icons.byKey.get(`t:${foldFrench(tool.name)}`) ?? icons.byKey.get(`s:${tool.slug.replace(/-/g, '')}`);
  if (!icon) return null;
  let svg: string;
  try {
    svg = readFileSync(path.join(icons.dir, 'icons', `${icon.slug}.svg`), 'utf8');
  } catch {
    return null;
  }
  const coloured = Buffer.from(svg.replace('<svg ', `<svg fill="#${icon.hex}" `), 'utf8');
  const hash = createHash('sha256').update(coloured).digest('hex').slice(0, 12);
  return { file: `${tool.slug}.${hash}.svg`, svg: coloured, icon: { title: icon.title, slug: icon.slug, license: icon.license?.type ?? 'CC0-1.0' } };
}
