/**
 * The MCP tools' input and output schemas and the prompts' arguments: the REST parameters
 * with their enums and bounds, and the REST representations outlined (output-schemas.ts).
 */
import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { Type, type TSchema } from '@sinclair/typebox';
import { DATA_LOCATIONS, GENERATIVE_AI, INSTITUTIONAL_ACCESS, PUPIL_ACCOUNTS, PUPIL_USES, TRAINS_ON_USER_DATA } from '../domain.js';
import { CategoryList } from '../schemas/categories.js';
import { CollectionDetail, CollectionList } from '../schemas/collections.js';
import { LevelList, RuleList, SubjectList } from '../schemas/school.js';
import { ToolDetail, ToolList } from '../schemas/tools.js';
import { outline } from './output-schemas.js';

/** TypeBox schemas are JSON Schema; the SDK takes them through its own validator (compiled here, once). */
export const schema = <T = Record<string, unknown>>(s: TSchema | Record<string, unknown>) => fromJsonSchema<T>(s as never) as StandardSchemaWithJSON<T, T>;

const Slug = Type.String({ description: 'From search_tools or a collection', examples: ['geogebra', 'kahoot'] });

// No argument outside these is taken: an unknown one is -32602, naming it (request-check.ts).
const closed = { additionalProperties: false } as const;

const SearchInput = Type.Object({
  q: Type.Optional(Type.String({ description: 'Words or a sentence, French or English', examples: ['corriger des copies', 'mind map'] })),
  category: Type.Optional(Type.String({ description: 'Slug(s) from list_categories; "a,b" = any', examples: ['quiz-et-interaction'] })),
  pricing: Type.Optional(Type.String({ description: 'free, freemium, paid or enterprise; "a,b" = any', examples: ['free,freemium'] })),
  has_education_pricing: Type.Optional(Type.Boolean({ description: 'true: only tools with an education offer' })),
  updated_since: Type.Optional(Type.String({ description: 'RFC 3339, e.g. 2026-11-01T00:00:00Z' })),
  sort: Type.Optional(Type.String({ description: 'name, -updated_at or -created_at; by relevance when q is given' })),
  page: Type.Optional(Type.Integer({ description: 'From 1' })),
  per_page: Type.Optional(Type.Integer({ description: '10 by default, at most 25' })),
  level: Type.Optional(Type.String({ description: 'Level slug or alias from list_levels; "a,b" = any', examples: ['6e', 'cycle 3'] })),
  subject: Type.Optional(Type.String({ description: 'Subject slug or alias from list_subjects; "a,b" = any', examples: ['svt', 'anglais'] })),
  include_transversal: Type.Optional(Type.Boolean({ description: 'With subject: also tools for any subject' })),
  age: Type.Optional(Type.Integer({ minimum: 3, maximum: 99, description: 'Pupils\' age: tools they may use themselves (for_pupils yes or with_consent)' })),
  for_pupils: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['yes', 'with_consent'], description: 'With age: yes = without further consent' })),
  ...Object.fromEntries(
    ([['pupil_use', PUPIL_USES], ['pupil_account', PUPIL_ACCOUNTS], ['generative_ai', GENERATIVE_AI], ['trains_on_user_data', TRAINS_ON_USER_DATA], ['data_location', DATA_LOCATIONS], ['institutional_access', INSTITUTIONAL_ACCESS]] as const).map(
      ([name, values]) => [name, Type.Optional(Type.Array(Type.Unsafe<string>({ type: 'string', enum: [...values] })))],
    ),
  ),
  offline: Type.Optional(Type.Boolean()),
  open_source: Type.Optional(Type.Boolean()),
  platform: Type.Optional(Type.String({ description: 'web, windows, macos, linux, ios, android, chromeos, browser-extension; "a,b" = any', examples: ['web'] })),
  language: Type.Optional(Type.String({ description: 'ISO 639-1 code(s) of the interface; "a,b" = any', examples: ['fr'] })),
  tag: Type.Optional(Type.String({ description: 'A tag of the tools; "a,b" = any', examples: ['open-source'] })),
}, closed);
export type SearchArgs = Record<string, string | number | boolean | string[] | undefined>;

const SlugInput = Type.Object({ slug: Slug }, closed);
const KindInput = Type.Object({ kind: Type.Optional(Type.String({ description: 'top (best tools for a task) or stack (tools for a persona)' })) }, closed);
const NoInput = Type.Object({}, closed);

export const inputs = {
  search: schema<SearchArgs>(SearchInput),
  slug: schema<{ slug: string }>(SlugInput),
  kind: schema<{ kind?: string }>(KindInput),
  none: schema(NoInput),
};

/** The names of the arguments each input takes, for the check of unknown ones. */
export const argumentNames = {
  search: Object.keys(SearchInput.properties),
  slug: Object.keys(SlugInput.properties),
  kind: Object.keys(KindInput.properties),
  none: [] as string[],
} satisfies Record<keyof typeof inputs, readonly string[]>;

export const outputs = {
  search: schema(outline(ToolList, 3)),
  tool: schema(outline(ToolDetail, 2)),
  collections: schema(outline(CollectionList, 3)),
  collection: schema(outline(CollectionDetail, 2)),
  categories: schema(outline(CategoryList, 2)),
  levels: schema(outline(LevelList, 2)),
  subjects: schema(outline(SubjectList, 2)),
  rules: schema(outline(RuleList, 2)),
};

export const prompts = {
  recommend: schema<{ besoin: string; public?: string; budget?: string }>(
    Type.Object({
      besoin: Type.String({ description: 'Le besoin, en une phrase (ex. « corriger des copies plus vite »)' }),
      public: Type.Optional(Type.String({ description: 'Pour qui (ex. « collège », « formateurs »)' })),
      budget: Type.Optional(Type.String({ description: 'gratuit, freemium, payant…' })),
    }),
  ),
  toolkit: schema<{ profil: string; contexte?: string }>(
    Type.Object({
      profil: Type.String({ description: 'Le profil (ex. « professeur de lettres », « documentaliste »)' }),
      contexte: Type.Optional(Type.String({ description: 'Contraintes ou priorités (ex. « RGPD », « sans compte élève »)' })),
    }),
  ),
};

