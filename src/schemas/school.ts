/**
 * The school facts (API.md, "School use"): the `school` object of a tool (summary and
 * detail), and the levels and subjects vocabularies (GET /levels, GET /subjects).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DATA_LOCATIONS, GENERATIVE_AI, INSTITUTIONAL_ACCESS, PUPIL_ACCOUNTS, PUPIL_ANSWERS, PUPIL_USES, REASON_CODES, SOURCED_SCHOOL_FIELDS, TRAINS_ON_USER_DATA } from '../domain.js';
import { LicenseMeta, Nullable, Url } from './common.js';

const Enum = (values: readonly string[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

export const ForPupilsBand = Type.Object(
  {
    from: Type.Integer({ minimum: 3, description: 'The youngest age of the band' }),
    to: Nullable(Type.Integer({ minimum: 3, description: 'The oldest age of the band; null for the last, open-ended one' })),
    answer: Enum(PUPIL_ANSWERS, 'yes: pupils of these ages may use it themselves; with_consent: only with a parent’s or the school’s consent; teacher_led: pupils take part only in what the teacher runs and shows; no: the terms forbid it; unknown: a fact it depends on is not known'),
    reasons: Type.Array(Enum(REASON_CODES, 'A reason code, explained by GET /rules'), { description: 'Why: stable codes, each explained in French and English by GET /api/v1/directory/rules' }),
  },
  { additionalProperties: false },
);

const summaryFields = {
  levels: Nullable(Type.Array(Type.String(), { description: 'Slugs of GET /levels, in their order: the school stages it is made for or fits well' })),
  subjects: Nullable(Type.Array(Type.String(), { description: 'Slugs of GET /subjects; `transversal` = any subject' })),
  pupil_use: Nullable(Enum(PUPIL_USES, 'independent: pupils use it on their own; supervised: pupils take part in what the teacher runs; teacher_only: only the teacher uses it')),
  pupil_account: Nullable(Enum(PUPIL_ACCOUNTS, 'What a pupil needs to take part; personal = their own account with the publisher')),
  min_age: Nullable(Type.Integer({ minimum: 0, description: 'The youngest age the publisher’s terms allow for a user’s own use or account; 0 when its terms set none and pupils need no account' })),
  consent_age: Nullable(Type.Integer({ minimum: 0, description: 'Below this age the publisher’s terms require a parent’s (or the school’s) consent; equal to min_age when the terms ask for none; null when unknown' })),
  generative_ai: Nullable(Enum(GENERATIVE_AI, 'none; feature: some features use generative AI; core: it is the product')),
  trains_on_user_data: Nullable(Enum(TRAINS_ON_USER_DATA, 'Whether the publisher trains models on what users type or upload')),
  data_location: Nullable(Enum(DATA_LOCATIONS, 'Where user data is stored; device = nothing leaves the device')),
  institutional_access: Nullable(Type.Array(Enum(INSTITUTIONAL_ACCESS, 'gar, ent, apps_education, educonnect'), { description: 'How schools reach it; [] when it has none' })),
  offline: Nullable(Type.Boolean({ description: 'Works without an internet connection once installed' })),
  open_source: Nullable(Type.Boolean({ description: 'Its source is under an OSI licence' })),
  for_pupils: Type.Array(ForPupilsBand, { description: 'Can my pupils use it? One answer per age band, contiguous from 3 to open-ended, derived from these facts and the rules of GET /rules (never typed by hand)' }),
};

export const SchoolSummary = Type.Object(summaryFields, {
  additionalProperties: false,
  description: 'What a teacher checks before using a tool with a class; null where nobody is sure (never a guess)',
});

export const SchoolSource = Type.Object(
  {
    fields: Type.Array(Enum(SOURCED_SCHOOL_FIELDS, 'A fact this page states')),
    url: Url,
    page_date: Nullable(Type.String({ format: 'date', description: 'The date the page gives for itself (“last updated”, “effective”); null when it gives none' })),
    checked_at: Nullable(Type.String({ format: 'date', description: 'The day someone read this page for these facts; null until someone has' })),
  },
  { additionalProperties: false },
);

export const School = Type.Object(
  {
    ...summaryFields,
    accessibility_url: Nullable({ ...Url, description: 'The publisher’s accessibility statement (RGAA/WCAG)' }),
    sources: Type.Array(SchoolSource, { description: 'The page that states each non-null fact of min_age, consent_age, trains_on_user_data (but not_applicable), data_location (but device), institutional_access (but [])' }),
  },
  { additionalProperties: false, description: 'What a teacher checks before using a tool with a class; null where nobody is sure (never a guess)' },
);
export type School = Static<typeof School>;

const vocabularyFields = {
  slug: Type.String(),
  label: Type.String({ description: 'French' }),
  aliases: Type.Array(Type.String(), { description: 'What people type for it (lower case, accent-free); the filters accept them' }),
  tool_count: Type.Integer({ description: 'Published tools with it' }),
};

export const Level = Type.Object(
  {
    ...vocabularyFields,
    ages: Type.Object({ min: Type.Integer(), max: Type.Integer() }, { additionalProperties: false, description: 'The usual ages of pupils at that stage' }),
    isced: Type.Array(Type.String(), { description: 'UNESCO ISCED 2011 level codes' }),
  },
  { additionalProperties: false },
);
export const Subject = Type.Object(vocabularyFields, { additionalProperties: false });

export const LevelList = Type.Object({ data: Type.Array(Level), meta: LicenseMeta }, { additionalProperties: false });
export type LevelList = Static<typeof LevelList>;
export const SubjectList = Type.Object({ data: Type.Array(Subject), meta: LicenseMeta }, { additionalProperties: false });
export type SubjectList = Static<typeof SubjectList>;

const RuleSource = Type.Object(
  {
    title: Type.String(),
    publisher: Type.String(),
    url: Nullable({ ...Url, description: 'Its address, once someone has read it there' }),
    page_date: Nullable(Type.String({ format: 'date', description: 'The date the text gives for itself' })),
    checked_at: Nullable(Type.String({ format: 'date', description: 'The day someone read it for this rule; null until someone has' })),
  },
  { additionalProperties: false },
);

export const Rule = Type.Object(
  {
    code: Enum(REASON_CODES, 'The reason code answers give'),
    answer: Nullable(Enum(PUPIL_ANSWERS, 'The answer it leads to; null for a reason that only explains')),
    explanation: Type.Object({ fr: Type.String(), en: Type.String() }, { additionalProperties: false }),
    source: Nullable({ ...RuleSource, description: 'The public text it comes from; null when it comes from the tool’s own facts and their pages (school.sources)' }),
    reading: Type.Boolean({ description: 'The rule is a reading of its source rather than a quotation' }),
  },
  { additionalProperties: false },
);

export const RuleSet = Type.Object(
  {
    country: Type.String({ description: 'ISO 3166-1 alpha-2, lower case' }),
    name: Type.String(),
    default: Type.Boolean({ description: 'The rules every for_pupils answer is computed with' }),
    ages: Type.Object(
      {
        genai_autonomy: Nullable(Type.Integer({ description: 'From this age pupils may use generative AI on their own' })),
        digital_consent: Nullable(Type.Integer({ description: 'From this age a minor consents alone to an online service processing their data' })),
        majority: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    rules: Type.Array(Rule),
  },
  { additionalProperties: false },
);

export const RuleList = Type.Object({ data: Type.Array(RuleSet), meta: LicenseMeta }, { additionalProperties: false });
export type RuleList = Static<typeof RuleList>;
