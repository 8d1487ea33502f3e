/**
 * Turns read-model entries into the public JSON shapes of the schemas in src/schemas, and
 * serialises them with serialisers compiled from those same schemas: a field that is not in
 * a response schema cannot reach a client.
 */
import fastJson from 'fast-json-stringify';
import { SCREENSHOT_VARIANT_WIDTH, screenshotVariantFile, type SchoolFacts } from '../domain.js';
import type { ReadModel } from '../read-model/read-model.js';
import { LOGO_PREFIX } from '../logos/simple-icons.js';
import { CategoryList } from '../schemas/categories.js';
import { LevelList, RuleList, SubjectList } from '../schemas/school.js';
import { CollectionDetail, CollectionList, type Collection, type CollectionSummary } from '../schemas/collections.js';
import { Tool, ToolDetail, ToolList, ToolSummary } from '../schemas/tools.js';

export const API_PREFIX = '/api/v1/directory';
/** Where the API serves content/media/ (http/routes/media.ts) when PUBLIC_MEDIA_URL is unset. */
export const MEDIA_PREFIX = '/media';

/** The base of screenshot URLs: PUBLIC_MEDIA_URL (a CDN), else the API's own /media/. */
/** Where a person reads a tool: the catalogue's page (src/pages), under the same base URL. */
export const TOOL_PAGE_PREFIX = '/outils/';

export function mediaBaseOf(publicMediaUrl: string | null, base: string): string {
  return publicMediaUrl ?? `${base}${MEDIA_PREFIX}`;
}

/** A page of GET /tools with its tools as read-model indices (directory-queries.ts, toolsPageParts). */
export interface ToolsPageParts {
  items: readonly number[];
  meta: ToolList['meta'];
  links: ToolList['links'];
}

export interface License {
  name: string;
  url: string;
  attribution: string;
}

/** How to credit the data: `<name> — <url>`, or the name alone when no address is configured (never a placeholder). */
export const attributionOf = (publisher: { name: string; url: string | null }) => (publisher.url ? `${publisher.name} — ${publisher.url}` : publisher.name);

/** Where a format that needs an address for the publisher (a feed's home page, a data package's source) points: its URL, else the site itself. */
export const publisherHome = (publisher: { url: string | null }, base: string) => publisher.url ?? `${base}/`;

export const serialize = {
  toolList: fastJson(ToolList),
  toolDetail: fastJson(ToolDetail),
  /** A Tool alone: the `data` of toolDetail, one line of the NDJSON export. */
  tool: fastJson(Tool),
  collectionList: fastJson(CollectionList),
  collectionDetail: fastJson(CollectionDetail),
  categoryList: fastJson(CategoryList),
  levelList: fastJson(LevelList),
  ruleList: fastJson(RuleList),
  subjectList: fastJson(SubjectList),
};

const serializeSummary = fastJson(ToolSummary);
/** What the list serialiser writes for a page with no tools: the rest follows `data`. */
const EMPTY_DATA = '{"data":[]';
if (!serialize.toolList({ data: [], meta: { page: 1, per_page: 1, total: 0, total_pages: 0, license: { name: '', url: '', attribution: '' } }, links: { self: '', first: '', prev: null, next: null, last: '' } }).startsWith(EMPTY_DATA)) {
  throw new Error('ToolList must serialise `data` first');
}
/** Bases of links (one per Host without PUBLIC_BASE_URL) whose summaries are kept. */
const SUMMARY_BASES = 8;
/** Bytes of summary JSON kept per revision, all bases together (about 500 per tool). */
const SUMMARY_BUDGET = 8 * 2 ** 20;
const OPEN_DATA = Buffer.from('{"data":[');
const COMMA = 0x2c;

/**
 * The bytes of a page of GET /tools, joined from each tool's summary serialised once per
 * revision and base of links, rather than the whole page through the schema serialiser: a
 * page of 30 tools cost about 85 µs that way, 11 µs joined, and a search never asked before
 * pays it on every page (docs/performance.md). The bytes are those of `serialize.toolList`:
 * the same compiled serialiser writes each summary (its item schema) and the rest of the page.
 * Summaries are kept as UTF-8 bytes, not strings: a serialiser's string is a chain of many
 * small pieces, and turning a page joined from such chains into bytes cost more (about 50 µs
 * for 30 tools) than the whole join.
 * One per revision (live-directory.ts), so a summary never outlives its tool's data.
 */
export class ToolListJson {
  private readonly byBase = new Map<string, Array<Buffer | undefined>>();
  private bytes = 0;

  constructor(
    private readonly model: ReadModel,
    private readonly limits = { bases: SUMMARY_BASES, bytes: SUMMARY_BUDGET },
  ) {}

  /** `page` is a page that `toolsPageParts` built from this read model with links under `base`. */
  serialize(page: ToolsPageParts, base: string): Buffer {
    const { items, meta, links } = page;
    if (items.length === 0) return Buffer.from(serialize.toolList({ data: [], meta, links }));
    // The rest of the page (`]`, meta, links) after the summaries: `]` and what follows `{"data":[]`.
    const rest = serialize.toolList({ data: [], meta, links }).slice(EMPTY_DATA.length - 1);
    const summaries = this.summariesOf(base);
    const parts: Buffer[] = new Array<Buffer>(items.length);
    // `{"data":[`, the summaries and their commas, then the rest: one buffer, written once.
    let length = OPEN_DATA.length + items.length - 1 + Buffer.byteLength(rest);
    for (let k = 0; k < items.length; k++) {
      const index = items[k]!;
      let summary = summaries[index];
      if (summary === undefined) {
        const fresh = Buffer.from(serializeSummary(toolSummary(this.model, index, base)));
        if (this.bytes + fresh.length > this.limits.bytes) this.forget();
        summaries[index] = summary = fresh;
        this.bytes += fresh.length;
      }
      parts[k] = summary;
      length += summary.length;
    }
    const out = Buffer.allocUnsafe(length);
    let at = OPEN_DATA.copy(out, 0);
    for (let k = 0; k < parts.length; k++) {
      if (k > 0) out[at++] = COMMA;
      at += parts[k]!.copy(out, at);
    }
    out.write(rest, at);
    return out;
  }

  private summariesOf(base: string): Array<Buffer | undefined> {
    let summaries = this.byBase.get(base);
    if (summaries === undefined) {
      if (this.byBase.size >= this.limits.bases) {
        this.byBase.clear();
        this.bytes = 0;
      }
      summaries = new Array<Buffer | undefined>(this.model.tools.length);
      this.byBase.set(base, summaries);
    }
    return summaries;
  }

  /** Past the budget, every summary is dropped and refilled by the pages asked next. */
  private forget(): void {
    for (const summaries of this.byBase.values()) summaries.fill(undefined);
    this.bytes = 0;
  }
}

export function toolSummary(model: ReadModel, i: number, base: string): ToolSummary {
  const t = model.tools[i]!;
  const category = model.categories[model.categoryOf[i]!]!.record;
  return {
    slug: t.slug,
    name: t.name,
    short_description: t.short_description,
    category: { slug: category.slug, name: category.name },
    pricing: t.pricing.model,
    has_education_pricing: t.education_program !== null,
    website_url: t.website_url,
    logo_url: t.logo_url ?? (model.logos[i] ? `${base}${LOGO_PREFIX}${model.logos[i]!.file}` : null),
    updated_at: t.updated_at,
    links: { self: `${base}${API_PREFIX}/tools/${t.slug}` },
    school: schoolSummary(t.school, model.forPupils[i] as ToolSummary['school']['for_pupils']),
  };
}

/** The school facts a list shows: all but the sources and the accessibility statement. */
function schoolSummary(s: SchoolFacts, forPupils: ToolSummary['school']['for_pupils']): ToolSummary['school'] {
  return {
    levels: s.levels, subjects: s.subjects, pupil_use: s.pupil_use, pupil_account: s.pupil_account, min_age: s.min_age, consent_age: s.consent_age,
    generative_ai: s.generative_ai, trains_on_user_data: s.trains_on_user_data, data_location: s.data_location,
    institutional_access: s.institutional_access, offline: s.offline, open_source: s.open_source, for_pupils: forPupils,
  };
}

export function toolDetail(model: ReadModel, i: number, base: string, media: string): Tool {
  const t = model.tools[i]!;
  const shot = t.screenshot;
  return {
    ...toolSummary(model, i, base),
    long_description: t.long_description,
    screenshot:
      shot === null
        ? null
        : {
            url: `${media}/${shot.file}`,
            alt: shot.alt,
            width: shot.width,
            height: shot.height,
            captured_at: shot.captured_at,
            variants: [
              {
                url: `${media}/${screenshotVariantFile(shot.file)}`,
                width: SCREENSHOT_VARIANT_WIDTH,
                height: Math.round((shot.height * SCREENSHOT_VARIANT_WIDTH) / shot.width),
              },
            ],
          },
    pricing_details: { model: t.pricing.model, summary: t.pricing.summary, starting_price: t.pricing.starting_price, url: t.pricing.url },
    education_program: t.education_program,
    freshness: { created_at: t.created_at, updated_at: t.updated_at, last_verified_at: t.last_verified_at },
    links_checked_at: t.links_checked_at,
    link_status: t.link_status,
    tags: t.tags,
    platforms: t.platforms,
    languages: t.languages,
    collections: model.toolCollections[i]!.map((ci) => {
      const c = model.collections[ci]!.record;
      return { slug: c.slug, title: c.title, links: { self: `${base}${API_PREFIX}/collections/${c.slug}` } };
    }),
    school: { ...schoolSummary(t.school, model.forPupils[i] as ToolSummary['school']['for_pupils']), accessibility_url: t.school.accessibility_url, sources: t.school.sources },
  };
}

export function collectionSummary(model: ReadModel, ci: number, base: string): CollectionSummary {
  const { record: c, items } = model.collections[ci]!;
  return {
    slug: c.slug,
    title: c.title,
    kind: c.kind,
    task: c.task,
    persona: c.persona,
    description: c.description,
    tool_count: items.length,
    updated_at: c.updated_at,
    links: { self: `${base}${API_PREFIX}/collections/${c.slug}` },
  };
}

export function collectionDetail(model: ReadModel, ci: number, base: string): Collection {
  return {
    ...collectionSummary(model, ci, base),
    tools: model.collections[ci]!.items.map((item) => ({ position: item.position, note: item.note, tool: toolSummary(model, item.tool, base) })),
  };
}
