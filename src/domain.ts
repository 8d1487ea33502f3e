/**
 * The directory as the publisher edits it: what the content files hold, what the store keeps
 * and what the read model is built from. Drafts are part of it; the read model hides them.
 */

export const PRICING_MODELS = ['free', 'freemium', 'paid', 'enterprise'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];
/** How the pricing models read in French, for people (feeds, facet labels). */
export const PRICING_LABELS: Record<PricingModel, string> = { free: 'Gratuit', freemium: 'Freemium', paid: 'Payant', enterprise: 'Entreprise' };

export const COLLECTION_KINDS = ['top', 'stack'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];

export const PLATFORMS = ['web', 'windows', 'macos', 'linux', 'ios', 'android', 'chromeos', 'browser-extension'] as const;

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
}

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
