/** What a query becomes on its way through the search: units, their groups of alternatives, and how documents match them. */
import type { Bitset } from '../bitset.js';

export interface Alternative {
  terms: readonly number[];
  weight: number;
  /** A completion of the last word as typed so far: it does not count as naming a word. */
  completion?: true;
  /** Typing errors corrected to find it. */
  typos?: number;
  /** Not searched in the long description (a query of stop words only). */
  strongOnly?: true;
  /** Searched in the long description only: the stemmer joins the word typed to other words of the name and description (`numération`, « numérique »). */
  longOnly?: true;
  /** Not searched in names: a word of an expression the vocabulary translates (`written by ChatGPT`: a detector is asked for, not the tool it names). */
  notName?: true;
}

export interface Unit {
  words: readonly string[];
  terms: readonly string[];
  /** Typed joined to another word by a hyphen (`lave-linge`): one word of the language, matched as typed, never corrected. */
  compound?: boolean;
}

export interface Group {
  alternatives: Alternative[];
  /** The unit's own terms (weight 1), when the index has them all. */
  literal: Alternative | null;
  /** For a run of words: each word as a group of its own, all of which must be found. */
  parts: Group[] | null;
}

/** A unit met before: its alternatives, how the documents match them, its category weights. */
export interface KnownUnit {
  group: Group;
  evaluation: Evaluation;
  categoryWeights: Float64Array;
  /** The subjects the unit names, whose tools it also finds; null when it names none. */
  subjects: readonly string[] | null;
}

/** How each document matches a group: its score, whether at all, and with how many typos. */
export interface Evaluation {
  score: Float32Array;
  set: Bitset;
  /** Typing errors corrected to find the group in the document (255 where it is not found). */
  typos: Uint8Array;
  /** Documents that hold the group in their name, short description or keywords (not only in the long description). */
  strong: Bitset;
  /** Whether some document holds the group as typed (or as a synonym), not only through a correction or a completion. */
  exact: boolean;
}
