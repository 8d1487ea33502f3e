/**
 * Reading one content file: YAML parsed strictly (unique keys, the core schema, no aliases
 * past a bound), strings normalised, and a schema check whose problems name the field and
 * its line.
 */
import { readFile, stat } from 'node:fs/promises';
import { Value, type ValueError } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import YAML, { LineCounter } from 'yaml';
import { normalizeText } from '../text/french-text.js';
import type { ContentProblems } from './content-problems.js';

/** A parsed content file: its value, and where in the text a value stands. */
export interface YamlFile {
  value: unknown;
  /** The line (from 1) of the value at `path`, or of its nearest parent that exists. */
  lineOf(path: ReadonlyArray<string | number>): number | undefined;
}

/**
 * The largest content file read (the biggest bundled one is under 20 kB): a bigger one is a
 * problem naming it, not an import that runs out of memory parsing it.
 */
export const MAX_CONTENT_FILE_BYTES = 4 * 1024 * 1024;

/**
 * How far YAML aliases may expand in one file (yaml's `maxAliasCount`, set here rather than
 * left to the library's default): an "alias bomb", each alias doubling the next, would
 * otherwise take all memory and time. Content files have no use for aliases beyond a few.
 */
export const MAX_ALIAS_COUNT = 100;

/** The record of a file: one slug (a tool's or collection's file), none, or per list item (categories.yaml). */
export const BY_INDEX = Symbol('record by list index');
export type RecordOfFile = string | null | typeof BY_INDEX;

export async function readYaml(file: string, shown: string, problems: ContentProblems, record: RecordOfFile): Promise<YamlFile | undefined> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > MAX_CONTENT_FILE_BYTES) {
      problems.add(shown, null, null, `is ${(size / 1024 / 1024).toFixed(1)} MiB; a content file has at most ${MAX_CONTENT_FILE_BYTES / 1024 / 1024} MiB (one file per tool or collection)`);
      return undefined;
    }
    text = await readFile(file, 'utf8');
  } catch (err) {
    problems.add(shown, null, null, `cannot read: ${(err as Error).message}`);
    return undefined;
  }
  const lines = new LineCounter();
  const doc = YAML.parseDocument(text, { uniqueKeys: true, schema: 'core', prettyErrors: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) problems.add(shown, null, null, `invalid YAML: ${e.message.split('\n')[0]}`, e.linePos?.[0].line);
    return undefined;
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    // yaml throws a ReferenceError when aliases would expand past the bound (a "billion laughs").
    if (!(err instanceof ReferenceError)) throw err;
    problems.add(shown, null, null, `invalid YAML: its aliases (*name) would expand too far (at most ${MAX_ALIAS_COUNT} alias expansions); write the values out instead`);
    return undefined;
  }
  const lineOf = (at: ReadonlyArray<string | number>): number | undefined => {
    for (let depth = at.length; depth >= 0; depth--) {
      const node = doc.getIn(at.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const screened = screenBidi(value, [], (at, found) => {
    const field = fieldName(`/${at.join('/')}`);
    const name = record === BY_INDEX ? recordFromPath(value, `/${at.join('/')}`) : record;
    const codes = [...new Set(found)].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(', ');
    if (isIdentifying(at)) {
      problems.add(shown, name, field, `contains a bidirectional control character (${codes}), which can make it display in another order than it reads; remove it`, lineOf(at));
    } else {
      problems.note(shown, name, field, codes, lineOf(at));
    }
  });
  return { value: normalizeStrings(screened), lineOf };
}

/**
 * Characters that reorder how text is displayed (Unicode bidirectional embeddings,
 * overrides and isolates, and the left-to-right, right-to-left and Arabic marks): in a name,
 * a slug or a URL they can make `https://a.example/‮gpj.exe` look like `…exe.jpg`, or two
 * names look alike; the directory's French text has no use for them.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** Fields that name or locate something (names, slugs, URLs, file names): refused with bidi controls, never cleaned. */
const IDENTIFYING_KEYS = new Set(['slug', 'name', 'title', 'category', 'tool', 'former_slugs', 'tags', 'languages', 'website_url', 'logo_url', 'url', 'file', 'link_redirects']);

function isIdentifying(at: ReadonlyArray<string | number>): boolean {
  return at.some((key) => typeof key === 'string' && IDENTIFYING_KEYS.has(key));
}

/** `value` without bidirectional controls; `found(path, characters)` for each string that had some. */
function screenBidi(value: unknown, at: Array<string | number>, found: (at: Array<string | number>, characters: string[]) => void): unknown {
  if (typeof value === 'string') {
    const controls = value.match(BIDI_CONTROLS);
    if (controls === null) return value;
    found(at, controls);
    return value.replace(BIDI_CONTROLS, '');
  }
  if (Array.isArray(value)) return value.map((v, i) => screenBidi(v, [...at, i], found));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty: a key named __proto__ stays a key.
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: screenBidi(v, [...at, k], found), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** NFC everywhere, zero-width and control characters out, block scalars trimmed. */
function normalizeStrings(value: unknown): unknown {
  if (typeof value === 'string') return normalizeText(value).trim();
  if (Array.isArray(value)) return value.map(normalizeStrings);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normalizeStrings(v);
    return out;
  }
  return value;
}

export function checkSchema<T>(schema: TSchema, yaml: YamlFile, file: string, record: string | null, problems: ContentProblems): T | undefined {
  const value = yaml.value;
  if (Value.Check(schema, value)) return value as T;
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const field = fieldName(error.path);
    if ([...seen].some((s) => field.startsWith(s))) continue; // one message per field, parents first
    seen.add(field);
    const recordName = record ?? recordFromPath(value, error.path);
    const at = error.path.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p.replaceAll('~1', '/').replaceAll('~0', '~')));
    problems.add(file, recordName, field || null, describe(error), yaml.lineOf(at));
  }
  return undefined;
}


export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}


export function fieldName(pointer: string): string {
  return pointer.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
}

function recordFromPath(value: unknown, pointer: string): string | null {
  const index = /^\/(\d+)/.exec(pointer)?.[1];
  if (index === undefined || !Array.isArray(value)) return null;
  const item = value[Number(index)] as { slug?: unknown } | undefined;
  return typeof item?.slug === 'string' ? item.slug : `#${Number(index) + 1}`;
}

/** The values an enum (a union of literals, possibly nullable) allows: `ok, broken, null`. */
function literalsOf(schema: { anyOf?: unknown[]; const?: unknown; type?: unknown }): unknown[] {
  if (!schema.anyOf) return [];
  const values = (schema.anyOf as Array<typeof schema>).flatMap((s) => (s.const !== undefined ? [s.const] : s.type === 'null' ? ['null'] : literalsOf(s)));
  return values.length > 0 && values.some((v) => v !== 'null') ? values : [];
}

function describe(error: ValueError): string {
  const literals = literalsOf(error.schema as { anyOf?: unknown[] });
  if (literals && literals.length > 0) return `must be one of ${literals.join(', ')} (got ${JSON.stringify(error.value)})`;
  if (error.message.startsWith('Expected string to match')) return `has the wrong format (got ${JSON.stringify(error.value)})`;
  if (error.message === 'Unexpected property') return 'is not a known field';
  if (error.message.startsWith('Expected required property')) return 'is missing';
  return `${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}${typeof error.value === 'string' ? ` (has ${[...error.value].length} characters)` : ''}`;
}

