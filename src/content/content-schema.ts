/**
 * The schema of the content files (docs/content-format.md). It is the first gate of the
 * import: a file that does not match is named with the field at fault.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import {
  COLLECTION_KINDS, DATA_LOCATIONS, GENERATIVE_AI, INSTITUTIONAL_ACCESS, LINK_STATUSES, PLATFORMS, PRICING_MODELS, PUPIL_ACCOUNTS, PUPIL_USES,
  PUPIL_ANSWERS, REASON_CODES, SOURCED_SCHOOL_FIELDS, TRAINS_ON_USER_DATA,
} from '../domain.js';

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,3})?Z$';

const Slug = Type.String({ pattern: SLUG_PATTERN, minLength: 2, maxLength: 80 });
const HttpsUrl = Type.String({ pattern: '^https://[^\\s/?#]+\\.[^\\s/?#]+(?:[/?#]\\S*)?$', maxLength: 500 });
const DateTime = Type.String({ pattern: DATE_PATTERN });
/** Where a redirect ended: any http(s) URL (a site may redirect to plain http). */
const AnyUrl = Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', maxLength: 2000 });
/** A screenshot's file in content/media/: `<slug>-<12 hex digits of its SHA-256>.webp`. */
export const MEDIA_FILE_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{12}\\.webp$';
const Text = (min: number, max: number) => Type.String({ minLength: min, maxLength: max });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Enum = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
const Status = Enum(['published', 'draft'] as const);

export const CategoryFile = Type.Array(
  Type.Object(
    { slug: Slug, name: Text(2, 80), description: Text(10, 300) },
    { additionalProperties: false },
  ),
  { minItems: 1 },
);

/** A vocabulary slug: checked against content/levels.yaml and subjects.yaml after the schema. */
const VocabularySlug = Type.String({ pattern: SLUG_PATTERN, minLength: 2, maxLength: 40 });
const DateOnly = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/**
 * The `school` block of a tool file (API.md, "School use"). Every field is written, null when
 * nobody is sure; the block may be left out, which says the same of every field.
 */
export const SchoolBlock = Type.Object(
  {
    levels: Nullable(Type.Array(VocabularySlug, { minItems: 1, maxItems: 10 })),
    subjects: Nullable(Type.Array(VocabularySlug, { minItems: 1, maxItems: 30 })),
    pupil_use: Nullable(Enum(PUPIL_USES)),
    pupil_account: Nullable(Enum(PUPIL_ACCOUNTS)),
    min_age: Nullable(Type.Integer({ minimum: 0, maximum: 99 })),
    consent_age: Nullable(Type.Integer({ minimum: 0, maximum: 99 })),
    generative_ai: Nullable(Enum(GENERATIVE_AI)),
    trains_on_user_data: Nullable(Enum(TRAINS_ON_USER_DATA)),
    data_location: Nullable(Enum(DATA_LOCATIONS)),
    institutional_access: Nullable(Type.Array(Enum(INSTITUTIONAL_ACCESS), { maxItems: INSTITUTIONAL_ACCESS.length })),
    offline: Nullable(Type.Boolean()),
    open_source: Nullable(Type.Boolean()),
    accessibility_url: Nullable(HttpsUrl),
    sources: Type.Array(
      Type.Object(
        {
          fields: Type.Array(Enum(SOURCED_SCHOOL_FIELDS), { minItems: 1, maxItems: SOURCED_SCHOOL_FIELDS.length }),
          url: HttpsUrl,
          page_date: Nullable(DateOnly),
          checked_at: Nullable(DateOnly),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10 },
    ),
  },
  { additionalProperties: false },
);

const Alias = Type.String({ minLength: 1, maxLength: 60, pattern: "^[a-z0-9][a-z0-9' -]*$" });

export const LevelsFile = Type.Array(
  Type.Object(
    {
      slug: VocabularySlug,
      label: Text(2, 80),
      ages: Type.Object({ min: Type.Integer({ minimum: 0, maximum: 99 }), max: Type.Integer({ minimum: 0, maximum: 99 }) }, { additionalProperties: false }),
      isced: Type.Array(Type.String({ pattern: '^[0-8][0-9]?$' }), { maxItems: 9 }),
      aliases: Type.Array(Alias, { maxItems: 200 }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 50 },
);

export const SubjectsFile = Type.Array(
  Type.Object(
    { slug: VocabularySlug, label: Text(2, 80), aliases: Type.Array(Alias, { maxItems: 200 }), topics: Type.Optional(Type.Array(Alias, { maxItems: 200 })) },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 100 },
);

export const ToolFile = Type.Object(
  {
    slug: Slug,
    name: Text(1, 80),
    status: Status,
    category: Slug,
    website_url: HttpsUrl,
    logo_url: Nullable(HttpsUrl),
    short_description: Text(40, 200),
    long_description: Text(400, 6000),
    pricing: Type.Object(
      {
        model: Enum(PRICING_MODELS),
        summary: Text(20, 400),
        starting_price: Nullable(
          Type.Object(
            {
              amount: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
              currency: Type.String({ pattern: '^[A-Z]{3}$' }),
              period: Enum(['month', 'year', 'once'] as const),
            },
            { additionalProperties: false },
          ),
        ),
        url: Nullable(HttpsUrl),
      },
      { additionalProperties: false },
    ),
    education_program: Nullable(
      Type.Object(
        {
          summary: Text(20, 400),
          eligibility: Type.Array(Text(2, 60), { minItems: 1, maxItems: 10 }),
          url: Nullable(HttpsUrl),
        },
        { additionalProperties: false },
      ),
    ),
    screenshot: Nullable(
      Type.Object(
        {
          file: Type.String({ pattern: MEDIA_FILE_PATTERN, maxLength: 120 }),
          alt: Text(5, 300),
          width: Type.Integer({ minimum: 1, maximum: 10000 }),
          height: Type.Integer({ minimum: 1, maximum: 10000 }),
          captured_at: DateTime,
        },
        { additionalProperties: false },
      ),
    ),
    tags: Type.Array(Type.String({ pattern: SLUG_PATTERN, maxLength: 40 }), { minItems: 1, maxItems: 10 }),
    platforms: Type.Array(Enum(PLATFORMS), { maxItems: PLATFORMS.length }),
    languages: Type.Array(Type.String({ pattern: '^[a-z]{2}$' }), { minItems: 1, maxItems: 40 }),
    former_slugs: Type.Array(Slug, { maxItems: 10 }),
    created_at: DateTime,
    updated_at: DateTime,
    last_verified_at: Nullable(DateTime),
    links_checked_at: Type.Optional(Nullable(DateTime)),
    link_status: Type.Optional(Nullable(Enum(LINK_STATUSES))),
    link_redirects: Type.Optional(
      Type.Object(
        { website_url: Type.Optional(AnyUrl), 'pricing.url': Type.Optional(AnyUrl), 'education_program.url': Type.Optional(AnyUrl) },
        { additionalProperties: false },
      ),
    ),
    school: Type.Optional(SchoolBlock),
  },
  { additionalProperties: false },
);

export const CollectionFile = Type.Object(
  {
    slug: Slug,
    title: Text(3, 120),
    status: Status,
    kind: Enum(COLLECTION_KINDS),
    task: Nullable(Text(3, 120)),
    persona: Nullable(Text(3, 120)),
    description: Text(40, 600),
    items: Type.Array(
      Type.Object({ tool: Slug, note: Text(20, 300) }, { additionalProperties: false }),
      { minItems: 1, maxItems: 20 },
    ),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { additionalProperties: false },
);

/** The values of a school fact a query's words ask for (« sans compte »: `pupil_account: [none, class_code]`). */
const Values = <T extends readonly string[]>(values: T) => Type.Optional(Type.Array(Enum(values), { minItems: 1, maxItems: values.length, uniqueItems: true }));

/** An entry of `school_facts`: its French label, the words that ask for it, and the facts, named as the GET /tools filters. */
const SchoolFactHint = Type.Object(
  {
    label: Text(2, 40),
    words: Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { minItems: 1, maxItems: 60 }),
    pupil_use: Values(PUPIL_USES),
    pupil_account: Values(PUPIL_ACCOUNTS),
    generative_ai: Values(GENERATIVE_AI),
    trains_on_user_data: Values(TRAINS_ON_USER_DATA),
    data_location: Values(DATA_LOCATIONS),
    institutional_access: Values(INSTITUTIONAL_ACCESS),
    offline: Type.Optional(Type.Boolean()),
    open_source: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** content/search-vocabulary.yaml: translations, filler, free words, school facts (docs/content-format.md). */
export const SearchVocabularyFile = Type.Object(
  {
    translations: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 80 }), Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems: 12 }))),
    filler: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 2000 })),
    free_words: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 200 })),
    alternatives: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 200 })),
    about: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 200 })),
    classroom: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 200 })),
    other_senses: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { maxItems: 300 })),
    english_senses: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 40 }), Type.String({ minLength: 1, maxLength: 80 }))),
    school_facts: Type.Optional(Type.Array(SchoolFactHint, { maxItems: 100 })),
    pupils: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 100 })),
    on_their_own: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 100 })),
    class_ages: Type.Optional(
      Type.Array(
        Type.Object(
          { age: Type.Integer({ minimum: 3, maximum: 25 }), words: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: 60 }) },
          { additionalProperties: false },
        ),
        { maxItems: 40 },
      ),
    ),
    exams: Type.Optional(
      Type.Array(
        Type.Object(
          {
            words: Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { minItems: 1, maxItems: 60 }),
            finds: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems: 20 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
  },
  { additionalProperties: false },
);

/** content/search-english.yaml: per tool slug, what it is and does in English, for the search. */
export const SearchEnglishFile = Type.Record(Slug, Type.String({ minLength: 40, maxLength: 600 }));

/** An expression of content/synonyms.yaml: a word or a short phrase. */
const Expression = Type.String({ minLength: 1, maxLength: 80 });
const ExpressionGroup = Type.Array(Expression, { minItems: 2, maxItems: 30 });

export const SynonymsFile = Type.Object(
  {
    families: Type.Optional(Type.Array(ExpressionGroup, { maxItems: 2000 })),
    equivalents: Type.Optional(Type.Array(ExpressionGroup, { maxItems: 2000 })),
    expansions: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 80 }), Type.Array(Expression, { minItems: 1, maxItems: 30 })),
    ),
  },
  { additionalProperties: false },
);

/** A country's rules for "Can my pupils use it?" (content/rules/*.yaml). */
export const RulesFile = Type.Object(
  {
    country: Type.String({ pattern: '^[a-z]{2}$' }),
    name: Text(2, 80),
    default: Type.Boolean(),
    ages: Type.Object(
      {
        genai_autonomy: Nullable(Type.Integer({ minimum: 3, maximum: 30 })),
        digital_consent: Nullable(Type.Integer({ minimum: 3, maximum: 30 })),
        majority: Type.Integer({ minimum: 10, maximum: 30 }),
      },
      { additionalProperties: false },
    ),
    rules: Type.Array(
      Type.Object(
        {
          code: Enum(REASON_CODES),
          answer: Nullable(Enum(PUPIL_ANSWERS)),
          explanation: Type.Object({ fr: Text(20, 600), en: Text(20, 600) }, { additionalProperties: false }),
          source: Nullable(Type.Object(
            { title: Text(5, 200), publisher: Text(2, 120), url: Nullable(HttpsUrl), page_date: Nullable(DateOnly), checked_at: Nullable(DateOnly) },
            { additionalProperties: false },
          )),
          reading: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
