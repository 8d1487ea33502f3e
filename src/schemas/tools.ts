/** The tool resource: summary (lists), detail, list envelope and query parameters. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LINK_STATUSES, PRICING_MODELS } from '../domain.js';
import { DateTime, LicenseMeta, License, Nullable, SelfLink, Url } from './common.js';

export const PricingModel = Type.Union(PRICING_MODELS.map((m) => Type.Literal(m)));

export const CategoryRef = Type.Object({ slug: Type.String(), name: Type.String() }, { additionalProperties: false });

const summaryFields = {
  slug: Type.String(),
  name: Type.String(),
  short_description: Type.String(),
  category: CategoryRef,
  pricing: PricingModel,
  has_education_pricing: Type.Boolean(),
  website_url: Url,
  logo_url: Nullable(Url),
  updated_at: DateTime,
  links: SelfLink,
};

export const ToolSummary = Type.Object(summaryFields, { additionalProperties: false });
export type ToolSummary = Static<typeof ToolSummary>;

export const Tool = Type.Object(
  {
    ...summaryFields,
    long_description: Type.String({ description: 'French text, paragraphs separated by a blank line' }),
    screenshot: Nullable(
      Type.Object(
        {
          url: Url,
          alt: Type.String(),
          width: Type.Integer(),
          height: Type.Integer(),
          captured_at: DateTime,
          variants: Type.Array(Type.Object({ url: Url, width: Type.Integer(), height: Type.Integer() }, { additionalProperties: false }), {
            description: 'Smaller copies of the same capture (a 640-wide one), for a srcset',
          }),
        },
        {
          additionalProperties: false,
          description: 'A capture of the tool’s website hosted by the directory (WebP, fingerprinted name, cached for ever), or null: never a made-up image',
        },
      ),
    ),
    pricing_details: Type.Object(
      {
        model: PricingModel,
        summary: Type.String(),
        starting_price: Nullable(
          Type.Object(
            { amount: Type.Number(), currency: Type.String(), period: Type.Union([Type.Literal('month'), Type.Literal('year'), Type.Literal('once')]) },
            { additionalProperties: false },
          ),
        ),
        url: Nullable(Url),
      },
      { additionalProperties: false },
    ),
    education_program: Nullable(
      Type.Object({ summary: Type.String(), eligibility: Type.Array(Type.String()), url: Nullable(Url) }, { additionalProperties: false }),
    ),
    freshness: Type.Object(
      {
        created_at: DateTime,
        updated_at: DateTime,
        last_verified_at: Nullable({ ...DateTime, description: 'When an editor last checked the facts against the tool’s own site; null until one has' }),
      },
      { additionalProperties: false },
    ),
    links_checked_at: Nullable({ ...DateTime, description: 'When the link checker last fetched the tool’s website, pricing and education URLs; null if never' }),
    link_status: Nullable(
      Type.Union(LINK_STATUSES.map((s) => Type.Literal(s)), {
        description: 'The worst result of that check: ok, redirected (answers from another address), broken (an HTTP error) or unreachable (no answer)',
      }),
    ),
    tags: Type.Array(Type.String()),
    platforms: Type.Array(Type.String()),
    languages: Type.Array(Type.String()),
    collections: Type.Array(Type.Object({ slug: Type.String(), title: Type.String(), links: SelfLink }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type Tool = Static<typeof Tool>;

export const PageLinks = Type.Object(
  { self: Url, first: Url, prev: Nullable(Url), next: Nullable(Url), last: Url },
  { additionalProperties: false },
);

const facetValue = <T extends TSchema>(value: T) =>
  Type.Object(
    {
      value,
      label: Type.String({ description: 'French, for people' }),
      count: Type.Integer({ description: 'Tools of the current query with this value, counted without this facet’s own filter' }),
      selected: Type.Boolean({ description: 'Whether the query’s own filter selects this value' }),
    },
    { additionalProperties: false },
  );

/** `meta.facets`, only with `facets=…` (read-model/facets.ts says which values, in which order). */
export const Facets = Type.Object(
  {
    category: Type.Optional(Type.Array(facetValue(Type.String()), { description: 'Categories with at least one tool, and any selected one; by count, then name' })),
    pricing: Type.Optional(Type.Array(facetValue(PricingModel), { description: 'All four models, in the order free, freemium, paid, enterprise' })),
    has_education_pricing: Type.Optional(Type.Array(facetValue(Type.Boolean()), { description: 'One value, true (what has_education_pricing=1 selects)' })),
  },
  { additionalProperties: false, description: 'Disjunctive counts: each facet with every other active filter (and q) applied, its own ignored' },
);

export const ToolList = Type.Object(
  {
    data: Type.Array(ToolSummary),
    meta: Type.Object(
      {
        page: Type.Integer(),
        per_page: Type.Integer(),
        total: Type.Integer(),
        total_pages: Type.Integer(),
        license: License,
        facets: Type.Optional(Facets),
      },
      { additionalProperties: false },
    ),
    links: PageLinks,
  },
  { additionalProperties: false },
);
export type ToolList = Static<typeof ToolList>;

export const ToolDetail = Type.Object({ data: Tool, meta: LicenseMeta }, { additionalProperties: false });

/**
 * Documented for OpenAPI. They are all strings on the wire and are checked by
 * `parseToolsQuery` (text-level rules: no `Infinity`, no repeats, suggestions).
 */
export const ToolsQuery = Type.Object({
  // Integers, so generated clients take `page: 2`; the route reads them from their text
  // (http/query-parameters.ts), which refuses `1.0`, `1e3` or `Infinity` with a precise message.
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Whole number ≥ 1; past the last page the list is empty.' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, default: 30, description: 'Whole number ≥ 1; values above 100 are clamped to 100.' })),
  category: Type.Optional(Type.String({ description: 'Category slug; `a,b` matches any of them. An unknown slug matches nothing.' })),
  pricing: Type.Optional(Type.String({ description: '`free`, `freemium`, `paid`, `enterprise` (any case); `free,freemium` matches any of them.' })),
  has_education_pricing: Type.Optional(Type.String({ enum: ['1', 'true', '0', 'false'], description: '`1`/`true`: only tools with an education program; `0`/`false`: no restriction.' })),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Search over the name and the short description: case, accents and punctuation folded; whole words with one typing error in words of 4+ letters and two in 8+; ' +
        'the last word also completed as typed; plurals and inflections; stop words and elisions ignored; synonyms and abbreviations in French and English. ' +
        'Ordered by relevance (exact name, name prefix, then a field-weighted score). A sentence works too.',
      examples: ['quiz', 'kahot', 'carte mentale', 'TBI', "apprendre l'anglais"],
    }),
  ),
  sort: Type.Optional(Type.String({ enum: ['name', '-updated_at', '-created_at'], description: 'Default `name`; with `q`, relevance.' })),
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      examples: ['2026-11-01T00:00:00Z'],
      description: 'Only tools created or updated at or after this instant (inclusive). RFC 3339 with seconds and `Z` or an offset (send `+` as `%2B`). With `sort=-updated_at` and /changes, an incremental sync (docs/sync.md).',
    }),
  ),
  facets: Type.Optional(
    Type.String({
      examples: ['category,pricing,has_education_pricing'],
      description: 'Adds `meta.facets` for these facets (comma-separated): `category`, `pricing`, `has_education_pricing`.',
    }),
  ),
});

export const SlugParams = Type.Object({ slug: Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 80 }) });
