/**
 * The arguments of the MCP tools, one rule for all of them (docs/api-decisions.md, "MCP
 * arguments"): each takes its natural JSON type and the text REST takes in the query string:
 * a boolean `true`/`false` or `"true"`/`"false"`/`"1"`/`"0"`, a list `["a", "b"]` or
 * `"a,b"`, a number `12` or `"12"`. The input schema says so and is listed as it is in
 * tools/list, but the SDK never checks arguments against it: the tool does, here, and then
 * hands their text to the REST parser. So an unknown argument, a value of the wrong type and
 * a value REST refuses are one kind of answer, a tool execution error (`isError`) carrying
 * the REST problem in the client's language, naming the argument (MCP 2025-11-25: a model
 * reads those and corrects itself; a protocol error it may never see).
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { MESSAGES, type JsonKind } from '../directory/messages.js';
import { ProblemError, type ParameterError } from '../directory/problems.js';
import { refuseIfAny, withSuggestion, type RawQuery } from '../directory/query-parameters.js';
import { closest } from '../text/french-text.js';

/** One argument: how its JSON value becomes REST's text, and its JSON Schema as tools/list shows it. */
export interface Argument {
  kind: JsonKind;
  required?: boolean;
  schema: Record<string, unknown>;
}
export type Arguments = Record<string, Argument>;

export const argument = {
  text: (description: string, extra: Record<string, unknown> = {}): Argument => ({ kind: 'string', schema: { type: 'string', description, ...extra } }),
  integer: (description: string, bounds: { minimum: number; maximum?: number }): Argument => ({
    kind: 'integer',
    schema: { type: ['integer', 'string'], ...bounds, description },
  }),
  // The texts REST reads ("1", "0" too) are said once, in the tool's description (tools/list is read by every agent, in tokens).
  boolean: (description: string): Argument => ({ kind: 'boolean', schema: { type: ['boolean', 'string'], description } }),
  /** Any of several values; `values` when they are a closed list REST names without suggestions. */
  list: (description: string, extra: Record<string, unknown> = {}, values?: readonly string[]): Argument => ({
    kind: 'list',
    schema: { type: ['array', 'string'], ...(values === undefined ? {} : { items: { enum: [...values] } }), description, ...extra },
  }),
};

export function required(arg: Argument): Argument {
  return { ...arg, required: true };
}

/**
 * The input schema of a tool: listed as JSON Schema, never refusing anything itself (the
 * tool checks its arguments with parseArguments, so that every refusal is a REST problem).
 */
export function inputSchema(args: Arguments): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
  const names = Object.keys(args);
  const json = {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, args[name]!.schema])),
    ...(names.some((name) => args[name]!.required) ? { required: names.filter((name) => args[name]!.required) } : {}),
    // No argument outside these is taken: an unknown one is refused, naming it.
    additionalProperties: false,
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'annuaire-ia-edu',
      jsonSchema: { input: () => json, output: () => json },
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
    },
  };
}

/** A JSON value as an error shows it (at most 200 characters). */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.slice(0, 200);
}

/** REST's text for a value of an argument of this kind, or undefined when its JSON type is not one the argument takes. */
function asText(kind: JsonKind, value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  switch (kind) {
    case 'integer':
      return typeof value === 'number' ? String(value) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : undefined;
    case 'list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(',') : undefined;
    default:
      return undefined;
  }
}

/** The query REST would read for these arguments, and the errors of those it cannot read. */
export function readArguments(tool: string, args: Arguments, given: Record<string, unknown> | undefined): { raw: RawQuery; errors: ParameterError[] } {
  const names = Object.keys(args);
  const raw: RawQuery = {};
  const errors: ParameterError[] = [];
  const refused = new Set<string>();
  for (const [name, value] of Object.entries(given ?? {})) {
    const spec = Object.hasOwn(args, name) ? args[name]! : undefined;
    if (spec === undefined) {
      errors.push(withSuggestion({ parameter: name, value: name, rule: MESSAGES.unknownArgument(tool, names) }, closest(name.toLowerCase().slice(0, 80), names, 2)[0]));
      continue;
    }
    // null is as if absent, as a blank REST parameter is.
    if (value === null || value === undefined) continue;
    const text = asText(spec.kind, value);
    if (text === undefined) {
      errors.push({ parameter: name, value: shown(value), rule: MESSAGES.jsonType(spec.kind) });
      refused.add(name);
    } else raw[name] = text;
  }
  for (const name of names) {
    if (args[name]!.required && raw[name] === undefined && !refused.has(name)) errors.push({ parameter: name, value: '', rule: MESSAGES.required() });
  }
  return { raw, errors };
}

/**
 * The arguments read by `parse`, REST's parser for their text; every error at once in one
 * invalid-parameter problem, those of the JSON values first, then REST's.
 */
export function parseArguments<T>(tool: string, args: Arguments, given: Record<string, unknown> | undefined, parse: (raw: RawQuery) => T): T {
  const { raw, errors } = readArguments(tool, args, given);
  let result: T;
  try {
    result = parse(raw);
  } catch (err) {
    if (errors.length === 0 || !(err instanceof ProblemError) || err.code !== 'invalid-parameter') throw err;
    errors.push(...(err.extras.errors ?? []));
  }
  refuseIfAny(errors);
  return result!;
}
