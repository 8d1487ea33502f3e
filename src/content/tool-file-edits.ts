/**
 * Changes a few top-level fields of a content file and nothing else: the publisher's
 * comments, key order, quoting and line folding stay as written. Re-printing the whole
 * document (yaml's `Document.toString`) would re-fold every long description, so the new
 * values are spliced into the text at the offsets the parser reports, and the result is
 * parsed back and compared with what was meant before anything is written.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML, { isMap, isScalar, type Node, type Pair } from 'yaml';
import { MAX_ALIAS_COUNT } from './yaml-file.js';

/** A value to set; `undefined` removes the field. */
export type FieldValue = string | number | null | Record<string, unknown> | undefined;

const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/**
 * `text` with `fields` set. A field that exists has its value replaced in place; a missing
 * one is added after the field `after` (else at the end), in the order given.
 * @throws when the text is not a YAML mapping, or when the edit would change anything else.
 */
export function setFields(text: string, fields: Record<string, FieldValue>, after: string): string {
  const doc = YAML.parseDocument(text, { schema: 'core' });
  if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (!isMap(doc.contents)) throw new Error('the file is not a YAML mapping');
  const pairs = doc.contents.items as Array<Pair<Node, Node | null>>;
  const find = (key: string) => pairs.find((p) => isScalar(p.key) && p.key.value === key);

  const edits: Array<{ start: number; end: number; text: string }> = [];
  const added: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const pair = find(key);
    if (pair === undefined) {
      if (value !== undefined) added.push(renderField(key, value));
      continue;
    }
    const { start, end } = pairSpan(text, pair);
    if (value === undefined) {
      // The whole line(s), with their newline.
      edits.push({ start, end: text[end] === '\n' ? end + 1 : end, text: '' });
    } else {
      edits.push({ start, end, text: renderField(key, value) });
    }
  }
  if (added.length > 0) {
    const anchor = find(after);
    const at = anchor ? pairSpan(text, anchor).end : text.replace(/\s+$/, '').length;
    edits.push({ start: at, end: at, text: `\n${added.join('\n')}` });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  if (!out.endsWith('\n')) out += '\n';

  const expected = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete expected[key];
    else expected[key] = value;
  }
  const check = YAML.parseDocument(out, { schema: 'core' });
  // (Key order aside: isDeepStrictEqual does not compare it.)
  if (check.errors.length > 0 || !isDeepStrictEqual(check.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), expected)) {
    throw new Error(`editing ${Object.keys(fields).join(', ')} would change more than those fields; the file was left as it was`);
  }
  return out;
}

/** From the key's first character to the value's last one (trailing comments and blank lines stay). */
function pairSpan(text: string, pair: Pair<Node, Node | null>): { start: number; end: number } {
  const start = pair.key.range![0];
  let end = pair.value?.range ? pair.value.range[1] : pair.key.range![1];
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  // A value the parser saw as empty (`key:`) ends at the key: take the colon too.
  if (pair.value === null || !pair.value.range || pair.value.range[0] === pair.value.range[1]) {
    const colon = text.indexOf(':', pair.key.range![1]);
    if (colon >= 0 && colon >= end) end = colon + 1;
  }
  return { start, end };
}

/** `key: value` as the content files write it: block mappings, dates in double quotes. */
function renderField(key: string, value: Exclude<FieldValue, undefined>): string {
  const doc = new YAML.Document({ [key]: value });
  YAML.visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && DATE.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0 }).replace(/\n+$/, '');
}

/**
 * Writes `data` to `file` through a temporary file in the same folder and a rename, so a
 * reader (or a crash) never sees half a file. The temporary file is `.<name>.<random>.tmp`:
 * if the process is killed before the rename, what it leaves is a dot-file, which the
 * content loader skips and .gitignore ignores (`.*.tmp`), never something that looks like
 * content.
 */
export async function writeFileAtomically(file: string, data: string | Buffer): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}
