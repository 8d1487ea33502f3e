/**
 * The `outputSchema` of each MCP tool, derived from the TypeBox schema of the REST
 * representation it returns (src/schemas), so the two doors cannot drift apart.
 *
 * The full schemas weigh 12.8 KB; a `tools/list` an agent pays for on every conversation
 * has to stay under 6 KB. An outline keeps what a model needs to read the result (field
 * names, types, enums, nullability, what the top level always has) to a given depth and
 * drops what it does not (descriptions, examples, formats, `additionalProperties`, optional
 * members such as `meta.facets`, which no tool asks for), so the structured content, which
 * is the REST body, always conforms to it.
 */
import type { TSchema } from '@sinclair/typebox';

type JsonSchema = Record<string, unknown>;

/** The outline of `schema`: objects and arrays below `depth` levels are named, not described. */
export function outline(schema: TSchema, depth: number): JsonSchema {
  return { ...walk(schema as JsonSchema, depth), ...('required' in schema ? { required: schema.required } : {}) };
}

function walk(schema: JsonSchema, depth: number): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf !== undefined) {
    if (anyOf.every((s) => 'const' in s)) return { enum: anyOf.map((s) => s.const) };
    // Nullable stays `anyOf` with single types, the portable spelling (not `type: [t, 'null']`).
    return { anyOf: anyOf.map((s) => walk(s, depth)) };
  }
  if (schema.type === 'object') {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    if (depth <= 0 || properties === undefined) return { type: 'object' };
    const required = new Set((schema.required as string[] | undefined) ?? []);
    return { type: 'object', properties: Object.fromEntries(Object.entries(properties).filter(([name]) => required.has(name)).map(([name, s]) => [name, walk(s, depth - 1)])) };
  }
  if (schema.type === 'array') return depth <= 0 ? { type: 'array' } : { type: 'array', items: walk(schema.items as JsonSchema, depth - 1) };
  if ('const' in schema) return { const: schema.const };
  return { type: schema.type };
}
