/**
 * The directory as the publisher edits it: what the content files hold, what the store keeps
 * and what the read model is built from. Drafts are part of it; the read model hides them.
 */

export const PRICING_MODELS = ['free', 'freemium', 'paid', 'enterprise'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

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

export interface Screenshot {
  url: string;
  alt: string;
  width: number;
  height: number;
}

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
  last_verified_at: string;
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

/** A dataset as read from the store, with the revision that identifies it. */
export interface Snapshot {
  revision: number;
  dataset: Dataset;
}
