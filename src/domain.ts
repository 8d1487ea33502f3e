/**
 * The directory as the publisher edits it: what the content files hold, what the store keeps
 * and what the read model is built from. Drafts are part of it; the read model hides them.
 */

export const PRICING_MODELS = ['free', 'freemium', 'paid', 'enterprise'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];
/**
 * A table of labels that user values index: without a prototype, so `constructor`,
 * `__proto__` or `toString` read as unknown (undefined), never as a built-in function.
 */
export function labelTable<T extends Record<string, string>>(entries: T): Readonly<T> {
  return Object.freeze(Object.assign(Object.create(null) as T, entries));
}

/** How the pricing models read in French, for people (feeds, facet labels). */
export const PRICING_LABELS: Record<PricingModel, string> = labelTable({ free: 'Gratuit', freemium: 'Freemium', paid: 'Payant', enterprise: 'Entreprise' });

export const COLLECTION_KINDS = ['top', 'stack'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];

export const PLATFORMS = ['web', 'windows', 'macos', 'linux', 'ios', 'android', 'chromeos', 'browser-extension'] as const;
/** How the platforms read in French, for people (facet labels, pages). */
const LANGUAGE_NAMES = new Intl.DisplayNames(['fr'], { type: 'language' });
/** Language names asked of Intl once per code: lists and facets name every language at every page. */
const languageNames = new Map<string, string>();

/** A language's French name (`fr` → « français »), or the code as given when Intl knows none. */
export function languageLabel(code: string): string {
  let name = languageNames.get(code);
  if (name === undefined) {
    try {
      name = LANGUAGE_NAMES.of(code) ?? code;
    } catch {
      name = code;
    }
    // Codes come from the content, and selected values from requests: a bounded cache.
    if (languageNames.size < 1_000) languageNames.set(code, name);
  }
  return name;
}

export const PLATFORM_LABELS: Record<(typeof PLATFORMS)[number], string> = labelTable({
  web: 'Navigateur web', windows: 'Windows', macos: 'macOS', linux: 'Linux', ios: 'iPhone et iPad', android: 'Android', chromeos: 'ChromeOS', 'browser-extension': 'Extension de navigateur',
});

export type Status = 'published' | 'draft';

export interface CategoryRecord {
  slug: string;
  name: string;
  description: string;
}

export interface Price {
  amount: number;
  currency: string;
  period: 'month' | 'year' | 'once';
}

export interface EducationProgram {
  summary: string;
  eligibility: string[];
  url: string | null;
}

/**
 * A screenshot the directory hosts (npm run screenshots): a WebP in content/media/ with a
 * fingerprinted name, and a 640-wide variant beside it (`…-640.webp`). The API turns `file`
 * into an absolute URL (PUBLIC_MEDIA_URL, else `/media/` on the API's own base).
 */
export interface Screenshot {
  file: string;
  alt: string;
  width: number;
  height: number;
  captured_at: string;
}

/** The width of the smaller variant written beside each screenshot. */
export const SCREENSHOT_VARIANT_WIDTH = 640;

/** The file name of a screenshot's 640-wide variant. */
export function screenshotVariantFile(file: string): string {
  return file.replace(/\.webp$/, `-${SCREENSHOT_VARIANT_WIDTH}.webp`);
}

/**
 * What the link checker (npm run check-links) last found for a tool's URLs, the worst of
 * them: `ok`, `redirected` (answered after a redirect to another address), `broken` (an
 * HTTP error) or `unreachable` (no HTTP answer: DNS, connection, TLS, timeout).
 */
export const LINK_STATUSES = ['ok', 'redirected', 'broken', 'unreachable'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** The URL fields of a tool the link checker reads, as named in `link_redirects`. */
export const LINK_FIELDS = ['website_url', 'pricing.url', 'education_program.url'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

export interface ToolRecord {
  slug: string;
  name: string;
  status: Status;
  category: string;
  website_url: string;
  logo_url: string | null;
  short_description: string;
  long_description: string;
  pricing: {
    model: PricingModel;
    summary: string;
    starting_price: Price | null;
    url: string | null;
  };
  education_program: EducationProgram | null;
  screenshot: Screenshot | null;
  tags: string[];
  platforms: string[];
  languages: string[];
  former_slugs: string[];
  created_at: string;
  updated_at: string;
  /** When an editor last checked the facts against the tool's own site; null until one has. */
  last_verified_at: string | null;
  /** When the link checker last ran on this tool's URLs (written by `check-links --write`). */
  links_checked_at: string | null;
  link_status: LinkStatus | null;
  /** Where a redirected URL ended, by field: a suggestion for an editor, never applied by itself. */
  link_redirects: Partial<Record<LinkField, string>>;
  /** What decides a choice for a class; a file without a `school` block has every fact unknown. */
  school: SchoolFacts;
}

export interface CollectionItemRecord {
  tool: string;
  note: string;
}

export interface CollectionRecord {
  slug: string;
  title: string;
  status: Status;
  kind: CollectionKind;
  task: string | null;
  persona: string | null;
  description: string;
  items: CollectionItemRecord[];
  created_at: string;
  updated_at: string;
}

/**
 * Words the search treats as meaning the same (content/synonyms.yaml): each expression of a
 * family or an equivalence group finds the others; an expansion's term also finds its list,
 * one way (`dys` finds `dyslexie`, not the reverse).
 */
export interface SynonymSet {
  /** Verb, noun and adjective of one family (`corriger`, `correction`, `correcteur`). */
  families: string[][];
  /** Expressions with the same meaning, French and English (`carte mentale`, `mind map`). */
  equivalents: string[][];
  /** An abbreviation or broad term and what it also finds (`TBI` → `tableau blanc interactif`). */
  expansions: Array<{ term: string; finds: string[] }>;
}

/** Everything the publisher edits, in the order the files give it. */
export interface Dataset {
  categories: CategoryRecord[];
  tools: ToolRecord[];
  collections: CollectionRecord[];
  synonyms: SynonymSet;
  /** The levels and subjects of `school` (content/levels.yaml, content/subjects.yaml). */
  vocabularies: SchoolVocabularies;
  /** What the search reads in a query besides the tools' words (content/search-vocabulary.yaml). */
  searchVocabulary: SearchVocabulary;
  /** "Can my pupils use it?": the rules of each country (content/rules/), one of them the default. */
  rules: PupilRuleSet[];
}

/**
 * The search's reading of a query (content/search-vocabulary.yaml): English expressions and
 * the French ones they find, words a query may hold that no tool must contain, words that
 * ask for tools at no charge, and words that ask for tools like a named one.
 */
export interface SearchVocabulary {
  translations: Array<{ term: string; finds: string[] }>;
  filler: string[];
  freeWords: string[];
  /** Words that ask for tools like a named one (`alternative à`, `comme`, `similar to`), folded. */
  alternatives: string[];
  /** Words after which a query says what its lesson is about (`sur`, `about`, `au sujet de`), folded. */
  about: string[];
  /** Words that say a query is about teaching (`élèves`, `classe`, `students`), folded, one word each. */
  classroom: string[];
  /**
   * Expressions in which a word the search would read as a level, a class, a word of teaching
   * or a constraint has another sense (« seconde guerre mondiale », « première classe » of a
   * train, « à la seconde près »), folded: their words are words to find, read as nothing else.
   */
  otherSenses?: string[];
  /** English words French writes with another meaning (`lecture`, `college`) and the French words of their English sense, for a query read as English. */
  englishSenses: Array<{ term: string; sense: string }>;
  /** Words that ask for a school fact (`hors ligne`, `sans compte`, `open source`): a filter, the tools known to have it. */
  schoolFacts: SchoolFactHint[];
  /** Words that say a class named next to them is the pupils' (`élèves`, `mes`, `students`, `graders`), folded, one word each. */
  pupils: string[];
  /** Words saying the pupils use the tool themselves (« seuls », « eux-mêmes », `themselves`), folded, one or two words: their age keeps no teacher-led tool. */
  onTheirOwn?: string[];
  /** Classes of the school systems and the usual age of their pupils at the start of the year (`cm2` → 10, `secondaire 2` → 13), folded. */
  classAges: Array<{ age: number; words: string[] }>;
  /**
   * Exams and diplomas (`brevet`, `bac`, `CEB`, `DELF`), folded, and the French expressions of
   * the work they ask for (« révision », « annales »): a query naming one is read as its level
   * (levels.yaml) and ranks first the tools those expressions select, without requiring them.
   */
  exams?: Array<{ words: string[]; finds: string[] }>;
  /** Per tool slug, what it is and does in English (content/search-english.yaml): searched as its long description is. */
  english: Record<string, string>;
}

/**
 * What words of a query ask of the school facts, as the GET /tools filters of the same names
 * would (`pupil_account: [none, class_code]` for « sans compte »): a filter (docs/search.md, "Constraints are filters").
 */
export interface SchoolFactFilter {
  pupil_use?: PupilUse[];
  pupil_account?: PupilAccount[];
  generative_ai?: GenerativeAi[];
  trains_on_user_data?: TrainsOnUserData[];
  data_location?: DataLocation[];
  institutional_access?: InstitutionalAccess[];
  offline?: boolean;
  open_source?: boolean;
}

/** An entry of `school_facts`: a French label (« hors ligne »), the words that ask for it (folded), and the facts. */
export interface SchoolFactHint {
  label: string;
  words: string[];
  filter: SchoolFactFilter;
}

export const EMPTY_SEARCH_VOCABULARY: SearchVocabulary = Object.freeze({ translations: [], filler: [], freeWords: [], alternatives: [], about: [], classroom: [], englishSenses: [], schoolFacts: [], pupils: [], classAges: [], english: {} });

/**
 * What an import did to one tool, as the public saw it (store/change-log.ts). A draft's
 * edits record nothing: only moves into, within and out of the published directory.
 */
export const CHANGE_KINDS = ['created', 'updated', 'unpublished', 'republished', 'renamed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ToolChange {
  /** The revision the import produced. */
  revision: number;
  /** The import's instant, RFC 3339 UTC to the second; never earlier than the change before it. */
  at: string;
  kind: ChangeKind;
  /** The tool's slug after the change (for `unpublished`, its last published slug). */
  slug: string;
  /** For `renamed`: the slug before; otherwise null. */
  previous_slug: string | null;
  /** The tool as published after the change (for `unpublished`: as last published). */
  tool: {
    name: string;
    short_description: string;
    category: { slug: string; name: string };
    pricing: PricingModel;
    website_url: string;
  };
}

/** A dataset as read from the store, with the revision that identifies it and the change log up to it. */
export interface Snapshot {
  revision: number;
  dataset: Dataset;
  /** Oldest first (by revision, then position in the import). */
  changes: ToolChange[];
}

/**
 * The facts a teacher checks before using a tool with a class (API.md, "School use"). Every
 * field is null when nobody is sure: never a guess.
 */
export const PUPIL_USES = ['independent', 'supervised', 'teacher_only'] as const;
export type PupilUse = (typeof PUPIL_USES)[number];
export const PUPIL_ACCOUNTS = ['none', 'class_code', 'teacher_created', 'school_sso', 'personal'] as const;
export type PupilAccount = (typeof PUPIL_ACCOUNTS)[number];
export const GENERATIVE_AI = ['none', 'feature', 'core'] as const;
export type GenerativeAi = (typeof GENERATIVE_AI)[number];
export const TRAINS_ON_USER_DATA = ['no', 'opt_out', 'yes', 'not_applicable'] as const;
export type TrainsOnUserData = (typeof TRAINS_ON_USER_DATA)[number];
export const DATA_LOCATIONS = ['device', 'france', 'eu', 'outside_eu'] as const;
export type DataLocation = (typeof DATA_LOCATIONS)[number];
export const INSTITUTIONAL_ACCESS = ['gar', 'ent', 'apps_education', 'educonnect'] as const;
export type InstitutionalAccess = (typeof INSTITUTIONAL_ACCESS)[number];
/** The school facts that come from a publisher's terms or an institutional catalogue: each non-null one names its page. */
export const SOURCED_SCHOOL_FIELDS = ['min_age', 'consent_age', 'trains_on_user_data', 'data_location', 'institutional_access'] as const;
export type SourcedSchoolField = (typeof SOURCED_SCHOOL_FIELDS)[number];

export interface SchoolSource {
  fields: SourcedSchoolField[];
  url: string;
  /** The date the page gives for itself ("last updated", "effective"); null when it gives none. */
  page_date: string | null;
  /** The day someone read that page for those facts; null until someone has. */
  checked_at: string | null;
}

export interface SchoolFacts {
  levels: string[] | null;
  subjects: string[] | null;
  pupil_use: PupilUse | null;
  pupil_account: PupilAccount | null;
  min_age: number | null;
  /** Below this age the publisher's terms require a parent's (or the school's) consent; equal to min_age when they ask for none. */
  consent_age: number | null;
  generative_ai: GenerativeAi | null;
  trains_on_user_data: TrainsOnUserData | null;
  data_location: DataLocation | null;
  institutional_access: InstitutionalAccess[] | null;
  offline: boolean | null;
  open_source: boolean | null;
  accessibility_url: string | null;
  sources: SchoolSource[];
}

/** A tool whose file says nothing of school use: every fact unknown. */
export function unknownSchoolFacts(): SchoolFacts {
  return {
    levels: null, subjects: null, pupil_use: null, pupil_account: null, min_age: null, consent_age: null, generative_ai: null,
    trains_on_user_data: null, data_location: null, institutional_access: null, offline: null, open_source: null,
    accessibility_url: null, sources: [],
  };
}

/** An entry of a school vocabulary (content/levels.yaml, content/subjects.yaml). */
export interface VocabularyEntry {
  slug: string;
  label: string;
  /** Lower case, accent-free; one alias may belong to several entries. */
  aliases: string[];
  /** Narrower words of a subject (`orthographe`): the filter takes them as aliases; the search reads them as words. */
  topics?: string[];
}

export interface LevelEntry extends VocabularyEntry {
  ages: { min: number; max: number };
  isced: string[];
}

export type SubjectEntry = VocabularyEntry;

export interface SchoolVocabularies {
  levels: LevelEntry[];
  subjects: SubjectEntry[];
}

/**
 * "Can my pupils use it?" (API.md, `for_pupils`): one answer per age band, derived from the
 * school facts and the rules of a country (content/rules/), never typed by hand.
 */
export const PUPIL_ANSWERS = ['yes', 'with_consent', 'teacher_led', 'no', 'unknown'] as const;
export type PupilAnswer = (typeof PUPIL_ANSWERS)[number];
/** The answers the `age` filter may keep (`for_pupils=`; read-model/school-filters.ts). */
export const AGE_FILTER_ANSWERS = ['yes', 'with_consent', 'teacher_led', 'unknown'] as const satisfies readonly PupilAnswer[];
export type AgeFilterAnswer = (typeof AGE_FILTER_ANSWERS)[number];

/**
 * The reasons an answer gives, as stable codes. The engine (school/for-pupils.ts) knows what
 * each one decides; a rules file explains each in French and English and names its source.
 */
export const REASON_CODES = [
  'pupil_use_unknown', 'teacher_only', 'min_age_unknown', 'terms_min_age', 'terms_allow', 'generative_ai_unknown',
  'framework_genai_autonomy', 'framework_no_pupil_account', 'framework_genai_feature', 'terms_consent_age',
  'digital_consent_age', 'consent_age_unknown', 'school_account',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export interface ForPupilsBand {
  from: number;
  /** The last age of the band; null for the last, open-ended one. */
  to: number | null;
  answer: PupilAnswer;
  reasons: ReasonCode[];
}

export interface RuleSource {
  /** The text's title and who publishes it. */
  title: string;
  publisher: string;
  /** Its address, once someone has read it there; null until then. */
  url: string | null;
  /** The date the text gives for itself. */
  page_date: string | null;
  /** The day someone read that page for this rule; null until someone has. */
  checked_at: string | null;
}

export interface PupilRule {
  code: ReasonCode;
  /** The answer it leads to; null for a reason that only explains (terms_allow, framework_genai_feature). */
  answer: PupilAnswer | null;
  explanation: { fr: string; en: string };
  /** Where the rule comes from: a public text, or (null) the tool's own facts and their pages. */
  source: RuleSource | null;
  /** The rule is a reading of its source rather than a quotation of it. */
  reading: boolean;
}

export interface PupilRuleSet {
  /** ISO 3166-1 alpha-2, lower case (`fr`). */
  country: string;
  name: string;
  /** The rules every answer is computed with (exactly one set is the default). */
  default: boolean;
  /** The ages the rules use: autonomous use of generative AI (null: no such rule), a minor's own consent to an online service, majority. */
  ages: { genai_autonomy: number | null; digital_consent: number | null; majority: number };
  rules: PupilRule[];
}
