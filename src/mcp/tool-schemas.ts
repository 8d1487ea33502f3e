/**
 * The MCP tools' input and output schemas and the prompts' arguments: the REST parameters
 * with their enums and bounds, and the REST representations outlined (output-schemas.ts).
 */
import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { Type, type TSchema } from '@sinclair/typebox';
import { AGE_FILTER_ANSWERS, DATA_LOCATIONS, GENERATIVE_AI, INSTITUTIONAL_ACCESS, PUPIL_ACCOUNTS, PUPIL_USES, TRAINS_ON_USER_DATA } from '../domain.js';
import { MAX_AGE_FILTER, MIN_AGE_FILTER } from '../read-model/school-filters.js';
import { CategoryList } from '../schemas/categories.js';
import { CollectionDetail, CollectionList } from '../schemas/collections.js';
import { LevelList, RuleList, SubjectList } from '../schemas/school.js';
import { ToolDetail, ToolList } from '../schemas/tools.js';
import { outline } from './output-schemas.js';
import { argument, inputSchema, required, type Arguments } from './tool-arguments.js';

/** TypeBox schemas are JSON Schema; the SDK takes them through its own validator (compiled here, once). */
export const schema = <T = Record<string, unknown>>(s: TSchema | Record<string, unknown>) => fromJsonSchema<T>(s as never) as StandardSchemaWithJSON<T, T>;

/** Agents pay per token: 10 tools a page by default, 25 at most (REST: 30 and 100). */
export const MCP_PAGING = { perPage: 10, maxPerPage: 25 };

const slug = required(argument.text('From search_tools or a collection', { examples: ['geogebra', 'kahoot'] }));
/** Said once, in search_tools' description: how every list and boolean argument is written. */
export const ARGUMENT_FORMS = 'Lists: ["a","b"] or "a,b" (any); booleans: true/false or "1"/"0".';

/**
 * search_tools: the parameters of GET /tools, each with the JSON type it is natural in and
 * REST's text (tool-arguments.ts). Arguments whose values REST checks with a suggestion
 * (`sort`, `pricing`, levels, subjects) have their values in the description, not an `enum`
 * (a client that checks the schema before sending would refuse a near miss without REST's
 * suggestion); the school facts' values are `enum`s.
 */
export const SEARCH_ARGUMENTS: Arguments = {
  q: argument.text('Words or a sentence, French or English', { examples: ['corriger des copies', 'mind map'] }),
  category: argument.list('Slugs from list_categories', { examples: ['quiz-et-interaction'] }),
  pricing: argument.list('free, freemium, paid or enterprise', { examples: [['free', 'freemium']] }),
  has_education_pricing: argument.boolean('true: only tools with an education offer'),
  updated_since: argument.text('RFC 3339, e.g. 2026-11-01T00:00:00Z'),
  sort: argument.text('name, -updated_at or -created_at; by relevance with q'),
  page: argument.integer('From 1', { minimum: 1 }),
  per_page: argument.integer(`Default ${MCP_PAGING.perPage}`, { minimum: 1, maximum: MCP_PAGING.maxPerPage }),
  level: argument.list('Slug or alias from list_levels', { examples: ['6e', 'cycle 3'] }),
  subject: argument.list('Slug or alias from list_subjects', { examples: ['svt', 'anglais'] }),
  include_transversal: argument.boolean('With subject: also tools for any subject'),
  age: argument.integer('Pupils\' age: tools they may use themselves', { minimum: MIN_AGE_FILTER, maximum: MAX_AGE_FILTER }),
  for_pupils: argument.list('With age: answers kept', {}, AGE_FILTER_ANSWERS),
  pupil_use: argument.list('Who uses it in class', {}, PUPIL_USES),
  pupil_account: argument.list('What a pupil needs', {}, PUPIL_ACCOUNTS),
  generative_ai: argument.list('Generative AI in it', {}, GENERATIVE_AI),
  trains_on_user_data: argument.list('Trains AI on users\' data', {}, TRAINS_ON_USER_DATA),
  data_location: argument.list('Where data is stored', {}, DATA_LOCATIONS),
  institutional_access: argument.list('How schools reach it', {}, INSTITUTIONAL_ACCESS),
  offline: argument.boolean('Works offline once installed'),
  open_source: argument.boolean('OSI licence'),
  platform: argument.list('web, windows, macos, linux, ios, android, chromeos, browser-extension'),
  language: argument.list('Interface language, ISO 639-1', { examples: ['fr'] }),
  tag: argument.list('A tag of the tools', { examples: ['open-source'] }),
};

export const SLUG_ARGUMENTS: Arguments = { slug };
export const KIND_ARGUMENTS: Arguments = { kind: argument.text('top (best tools for a task) or stack (tools for a persona)') };
export const NO_ARGUMENTS: Arguments = {};

export const inputs = {
  search: inputSchema(SEARCH_ARGUMENTS),
  slug: inputSchema(SLUG_ARGUMENTS),
  kind: inputSchema(KIND_ARGUMENTS),
  none: inputSchema(NO_ARGUMENTS),
};

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

