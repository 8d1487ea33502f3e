/** The tool resource: summary (lists), detail, list envelope and query parameters. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AGE_FILTER_ANSWERS, DATA_LOCATIONS, GENERATIVE_AI, INSTITUTIONAL_ACCESS, LINK_STATUSES, PRICING_MODELS, PUPIL_ACCOUNTS, PUPIL_USES, TRAINS_ON_USER_DATA } from '../domain.js';
import { DateTime, LicenseMeta, License, Nullable, SelfLink, TRY_IT, Url } from './common.js';
import { School, SchoolSummary } from './school.js';

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
  school: SchoolSummary,
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
    school: School,
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

/** The school facts whose values are a closed list, with their values: the facets and a query's fact hints name them alike. */
const SCHOOL_ENUM_FACTS = [['pupil_use', PUPIL_USES], ['pupil_account', PUPIL_ACCOUNTS], ['generative_ai', GENERATIVE_AI], ['trains_on_user_data', TRAINS_ON_USER_DATA], ['data_location', DATA_LOCATIONS], ['institutional_access', INSTITUTIONAL_ACCESS]] as const;
const EnumOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** `meta.facets`, only with `facets=…` (read-model/facets.ts says which values, in which order). */
export const Facets = Type.Object(
  {
    category: Type.Optional(Type.Array(facetValue(Type.String()), { description: 'Categories with at least one tool, and any selected one; by count, then name' })),
    pricing: Type.Optional(Type.Array(facetValue(PricingModel), { description: 'All four models, in the order free, freemium, paid, enterprise' })),
    has_education_pricing: Type.Optional(Type.Array(facetValue(Type.Boolean()), { description: 'One value, true (what has_education_pricing=1 selects)' })),
    level: Type.Optional(Type.Array(facetValue(Type.String()), { description: 'Levels with at least one tool, and any selected one, in school order' })),
    subject: Type.Optional(Type.Array(facetValue(Type.String()), { description: 'Subjects with at least one tool, and any selected one, in the order of /subjects' })),
    ...Object.fromEntries(
      SCHOOL_ENUM_FACTS.map(
        ([name, values]) => [name, Type.Optional(Type.Array(facetValue(EnumOf(values)), { description: 'Every value, in the contract’s order; a tool whose fact is unknown counts for none' }))],
      ),
    ),
    offline: Type.Optional(Type.Array(facetValue(Type.Boolean()), { description: 'true, then false; a tool whose fact is unknown counts for neither' })),
    open_source: Type.Optional(Type.Array(facetValue(Type.Boolean()), { description: 'true, then false; a tool whose fact is unknown counts for neither' })),
    platform: Type.Optional(Type.Array(facetValue(Type.String()), { description: 'All eight platforms, in their order' })),
    language: Type.Optional(Type.Array(facetValue(Type.String()), { description: 'Interface languages with at least one tool (or selected), most tools first' })),
    tag: Type.Optional(Type.Array(facetValue(Type.String()), { description: 'Tags with at least one tool (or selected), most tools first' })),
  },
  { additionalProperties: false, description: 'Disjunctive counts: each facet with every other active filter (and q) applied, its own ignored' },
);

const Chip = Type.Object({ slug: Type.String(), label: Type.String({ description: 'French' }) }, { additionalProperties: false });

/** A school fact a query asks for (« hors ligne »): its label, and the GET /tools filters that would keep only the tools known to have it. */
const FactHint = Type.Object(
  {
    label: Type.String({ description: 'French, for a chip (« hors ligne », « sans compte élève »)' }),
    filter: Type.Object(
      {
        ...Object.fromEntries(SCHOOL_ENUM_FACTS.map(([name, values]) => [name, Type.Optional(Type.Array(EnumOf(values)))])),
        offline: Type.Optional(Type.Boolean()),
        open_source: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false, description: 'The GET /tools filters of the same names (a list: any of its values) that would keep only the tools known to have it' },
    ),
  },
  { additionalProperties: false },
);

/** `meta.query`, only with `q`: what the search read in it, for a client to show (« SVT · lycée »). */
export const QueryReading = Type.Object(
  {
    q: Type.String({ description: 'The query as searched (NFC, single spaces)' }),
    searched: Type.Array(Type.String(), { description: 'The words looked for in the tools (folded)' }),
    ignored: Type.Array(Type.String(), { description: 'Words of conversation no tool must contain (je cherche, is there, app…)' }),
    level: Type.Array(Chip, { description: 'Levels the query names: tools with them rank first; never a filter' }),
    subject: Type.Array(Chip, { description: 'Subjects the query names: tools with them are found even if their text does not say it' }),
    free: Type.Boolean({ description: 'The query asks for tools at no charge (gratuit, free): a filter, as pricing=free,freemium; free tools rank first' }),
    facts: Type.Array(FactHint, { description: 'School facts the query asks for (hors ligne, sans compte, open source, sans IA): filters, as the GET /tools filters in `filter`; its words are not looked for' }),
    age: Type.Union([Type.Integer({ minimum: 3 }), Type.Null()], {
      description: 'The pupils’ age the query states (« mes élèves de 5e » → 12, « 8 ans », 10-year-olds): a filter, as GET /tools’ age with the for_pupils answers in `for_pupils`; null when it states none. A level named alone (« maths 6e ») is a level, not an age',
    }),
    for_pupils: Type.Union([Type.Array(Type.Union(AGE_FILTER_ANSWERS.map((a) => Type.Literal(a)))), Type.Null()], {
      description: 'With `age`, the for_pupils answers the age keeps, as GET /tools’ for_pupils takes them: yes, with_consent, teacher_led and unknown for a class a teacher speaks of (« mes élèves de 5e », « ma classe de CM2 »: a tool the teacher leads with them counts), yes, with_consent and unknown for a child’s age alone (« pour un enfant de 8 ans ») or pupils said to use it themselves; unknown: a tool whose answer at that age waits on a fact nobody has read is kept, after those known to suit it among equals; null without `age`',
    }),
    without_constraints: Type.Optional(
      Type.Object(
        {
          q: Type.String({ description: 'The query without the words that state its constraints (free, school facts, the pupils’ age)' }),
          total: Type.Integer({ description: 'How many tools that query finds, with the request’s other parameters' }),
          href: Type.String({ format: 'uri', description: 'That query’s first page' }),
        },
        { additionalProperties: false, description: 'Present when the query states constraints (free, facts, age), which are applied as filters: the same search without them' },
      ),
    ),
    similar_to: Type.Array(Type.Object({ slug: Type.String(), name: Type.String() }, { additionalProperties: false }), {
      description: 'The tools the query asks alternatives to (alternative à Kahoot, comme Padlet, like Quizlet): the tools most like them are found, they are not',
    }),
  },
  { additionalProperties: false, description: 'What the search understood in q' },
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
        query: Type.Optional(QueryReading),
        warnings: Type.Optional(
          Type.Array(
            Type.Object(
              {
                code: Type.String({ description: 'Stable, for programs: `unknown_category`; `constraints_unmet` when the constraints the query states (meta.query: free, facts, age) keep none of the tools its words find' }),
                parameter: Type.String(),
                value: Type.String(),
                message: Type.String({ description: 'French, for people' }),
                suggestion: Type.Optional(Type.String({ description: 'The nearest valid value' })),
              },
              { additionalProperties: false },
            ),
            { description: 'What in the query matched nothing although it is allowed (an unknown category still answers 200, per v1; constraints of q that keep nothing)' },
          ),
        ),
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
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, examples: [1], description: 'Whole number ≥ 1; past the last page the list is empty.' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, default: 30, examples: [30], description: 'Whole number ≥ 1; values above 100 are clamped to 100.' })),
  category: Type.Optional(Type.String({ examples: ['quiz-et-interaction'], description: 'Category slug; `a,b` matches any of them. An unknown slug matches nothing.' })),
  pricing: Type.Optional(Type.String({ examples: ['free,freemium'], description: '`free`, `freemium`, `paid`, `enterprise` (any case); `free,freemium` matches any of them.' })),
  has_education_pricing: Type.Optional(Type.String({ enum: ['1', 'true', '0', 'false'], examples: ['1'], description: '`1`/`true`: only tools with an education program; `0`/`false`: no restriction.' })),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Search over the name, the short description, the tags and category, and (low weight, whole words) the long description: case, accents and punctuation folded; ' +
        'whole words with one typing error in words of 4+ letters and two in 8+; the last word also completed as typed; plurals and inflections; stop words and elisions ignored; ' +
        'synonyms, abbreviations and English terms. A sentence works: conversation (je cherche, I need, app) is set aside, levels (6e, lycée, BTS) rank their tools first, ' +
        'subjects (SVT, hg, anglais) also find the tools of that subject, gratuit/free ranks free tools first; a tool named next to alternative/comme/like (alternative à Kahoot) finds the tools most like it; meta.query says what was read. ' +
        'Ordered by relevance (exact name, name prefix, a name or description match before a long-description one, then a field-weighted score).',
      // The one example « try it » sends by default: every published directory has quiz makers.
      [TRY_IT]: true,
      examples: ['quiz', 'kahot', 'carte mentale', 'SVT lycée', 'je cherche un outil gratuit pour faire voter la classe', 'interactive whiteboard app', 'alternative gratuite à Kahoot'],
    }),
  ),
  sort: Type.Optional(Type.String({ enum: ['name', '-updated_at', '-created_at'], examples: ['-updated_at'], description: 'Default `name`; with `q`, relevance.' })),
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      examples: ['2026-11-01T00:00:00Z'],
      description: 'Only tools created or updated at or after this instant (inclusive). RFC 3339 with seconds and `Z` or an offset (send `+` as `%2B`). With `sort=-updated_at` and /changes, an incremental sync (docs/sync.md).',
    }),
  ),
  facets: Type.Optional(
    Type.String({
      examples: ['category,pricing,has_education_pricing', 'level,subject,generative_ai'],
      description:
        'Adds `meta.facets` for these facets (comma-separated): `category`, `pricing`, `has_education_pricing`, `level`, `subject`, `pupil_use`, `pupil_account`, ' +
        '`generative_ai`, `trains_on_user_data`, `data_location`, `institutional_access`, `offline`, `open_source`, `platform`, `language`, `tag`.',
    }),
  ),
  level: Type.Optional(Type.String({ examples: ['college', '6e', 'cycle 3', 'lycee,lycee-pro'], description: 'A level slug or alias (GET /levels: `6e`, `cycle 3`, `seconde`, `bts`, `p4`, `cegep`…); `a,b` = any. Tools with any of those levels; an unknown value is a 400 with the nearest level.' })),
  subject: Type.Optional(Type.String({ examples: ['svt', 'hg', 'mathematiques,physique-chimie'], description: 'A subject slug or alias (GET /subjects: `hg`, `maths`, `anglais`, `snt`…); `a,b` = any. `transversal` tools match only with `include_transversal=1`.' })),
  include_transversal: Type.Optional(Type.String({ enum: ['1', 'true', '0', 'false'], examples: ['1'], description: 'With `subject`: also the tools that serve any subject (quiz makers, boards…).' })),
  age: Type.Optional(Type.Integer({ minimum: 3, maximum: 99, examples: [12], description: 'Tools pupils of that age may use themselves: their `school.for_pupils` answer at that age is `yes` or `with_consent` (so not teacher-only, a known minimum age at most this, and no rule of GET /rules keeps it teacher-led).' })),
  for_pupils: Type.Optional(Type.String({ examples: ['yes', 'with_consent,teacher_led', 'with_consent,unknown'], description: 'With `age`, the `school.for_pupils` answers at that age kept, `a,b` = any (`yes` always is): `yes` keeps only the tools pupils of that age may use without further consent; `with_consent` (what `age` alone keeps) also those needing a parent’s or the school’s consent; `teacher_led` also the tools their teacher leads with them (teacher-only tools, generative AI before the age of autonomous use); `unknown` also the tools whose answer waits on a fact nobody has read yet (with `q`, those known to suit the age rank first among equals). `no` is never kept. Without `age`, a 400.' })),
  pupil_use: Type.Optional(Type.String({ examples: ['independent,supervised'], description: '`independent`, `supervised`, `teacher_only`; `a,b` = any.' })),
  pupil_account: Type.Optional(Type.String({ examples: ['none,class_code'], description: '`none`, `class_code`, `teacher_created`, `school_sso`, `personal`; `a,b` = any.' })),
  generative_ai: Type.Optional(Type.String({ examples: ['none'], description: '`none`, `feature`, `core`; `a,b` = any.' })),
  trains_on_user_data: Type.Optional(Type.String({ examples: ['no,not_applicable'], description: '`no`, `opt_out`, `yes`, `not_applicable`; `a,b` = any.' })),
  data_location: Type.Optional(Type.String({ examples: ['france,eu,device'], description: '`device`, `france`, `eu`, `outside_eu`; `a,b` = any.' })),
  institutional_access: Type.Optional(Type.String({ examples: ['gar'], description: '`gar`, `ent`, `apps_education`, `educonnect`: tools reachable that way; `a,b` = any.' })),
  offline: Type.Optional(Type.String({ enum: ['1', 'true', '0', 'false'], examples: ['1'], description: '`1`: only tools that work offline once installed; `0`: only the others.' })),
  open_source: Type.Optional(Type.String({ enum: ['1', 'true', '0', 'false'], examples: ['1'], description: '`1`: only open-source tools (OSI licence); `0`: only the others.' })),
  platform: Type.Optional(Type.String({ examples: ['android,ios'], description: '`web`, `windows`, `macos`, `linux`, `ios`, `android`, `chromeos`, `browser-extension`; `a,b` = any.' })),
  language: Type.Optional(Type.String({ examples: ['fr'], description: 'Interface language, ISO 639-1 (`fr`, `en`, `de`…); `a,b` = any.' })),
  tag: Type.Optional(Type.String({ examples: ['open-source'], description: 'A tag (`open-source`, `rgpd`, `ia-generative`…); `a,b` = any. An unknown tag matches nothing.' })),
});

const slugParams = (example: string, description: string) =>
  Type.Object({ slug: Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 80, examples: [example], description }) });
/** A tool's slug; the example is a tool of the bundled directory, so « try it » gets a 200. */
export const ToolSlugParams = slugParams('chatgpt', 'The tool’s slug, from GET /tools; a former slug answers 301');
export const CollectionSlugParams = slugParams('creer-un-quiz', 'The collection’s slug, from GET /collections');
