/**
 * The parameters of the JSON-RPC requests this server answers, checked before the SDK sees
 * them. The SDK answers a parameter of the wrong type with -32603 (internal error) and a
 * dump of its validator's output, and looks tool and prompt names up in plain objects, so
 * `constructor` or `toString` found Object.prototype ("Tool constructor disabled", or a
 * crash): a client's mistake looked like a server fault. Here a bad parameter, or a name
 * that is not one of this server's own, is -32602 (invalid params) with the message of the
 * REST problem for a bad parameter, in the client's language, and that problem in `data`.
 *
 * Only the fields the server reads are checked; the rest of the protocol's shape (the
 * 2026-07-28 envelope, unknown methods) is left to the SDK.
 */
import { MESSAGES, type Lang, type Rule } from '../directory/messages.js';
import { problemObject, type ParameterError } from '../directory/problems.js';
import { withSuggestion } from '../directory/query-parameters.js';
import { closest } from '../text/french-text.js';
import { shown } from './tool-arguments.js';

/** JSON-RPC's invalid params. */
export const INVALID_PARAMS = -32602;

export interface KnownNames {
  tools: readonly string[];
  prompts: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A field of `params`, read only when it is the object's own (never from Object.prototype). */
const own = (object: Record<string, unknown>, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);


/**
 * The errors of one request's parameters (none when it may go on), for the methods whose
 * parameters the server reads.
 */
export function parameterErrors(message: Record<string, unknown>, known: KnownNames): ParameterError[] {
  const method = own(message, 'method');
  const params = own(message, 'params');
  // A `params` that is not an object is the SDK's -32600; nothing to read here.
  if (typeof method !== 'string' || (params !== undefined && !isObject(params))) return [];
  const p = params ?? {};
  const errors: ParameterError[] = [];
  const fail = (path: string, value: unknown, rule: Rule, suggestion?: string) =>
    errors.push(withSuggestion({ parameter: `params.${path}`, value: shown(value), rule }, suggestion));
  const text = (object: Record<string, unknown>, key: string, path: string, required: boolean): string | undefined => {
    const value = own(object, key);
    if (value === undefined) {
      if (required) fail(path, '', MESSAGES.required());
      return undefined;
    }
    if (typeof value !== 'string') {
      fail(path, value, MESSAGES.jsonType('string'));
      return undefined;
    }
    return value;
  };
  const object = (container: Record<string, unknown>, key: string, path: string, required: boolean): Record<string, unknown> | undefined => {
    const value = own(container, key);
    if (value === undefined) {
      if (required) fail(path, '', MESSAGES.required());
      return undefined;
    }
    if (!isObject(value)) {
      fail(path, value, MESSAGES.jsonType('object'));
      return undefined;
    }
    return value;
  };
  const oneOf = (value: string | undefined, names: readonly string[], path: string) => {
    if (value !== undefined && !names.includes(value)) fail(path, value, MESSAGES.oneOf(names, false), closest(value.toLowerCase().slice(0, 80), names, 1)[0]);
  };
  const stringValues = (values: Record<string, unknown> | undefined, path: string) => {
    for (const [key, value] of Object.entries(values ?? {})) if (typeof value !== 'string') fail(`${path}.${key}`, value, MESSAGES.jsonType('string'));
  };

  switch (method) {
    case 'initialize': {
      text(p, 'protocolVersion', 'protocolVersion', true);
      object(p, 'capabilities', 'capabilities', true);
      const client = object(p, 'clientInfo', 'clientInfo', true);
      if (client) {
        text(client, 'name', 'clientInfo.name', true);
        text(client, 'version', 'clientInfo.version', true);
      }
      break;
    }
    case 'tools/list':
    case 'prompts/list':
    case 'resources/list':
    case 'resources/templates/list':
      text(p, 'cursor', 'cursor', false);
      break;
    case 'tools/call': {
      oneOf(text(p, 'name', 'name', true), known.tools, 'name');
      // The arguments themselves are the tool's to check: a refusal is a tool error (mcp/tool-arguments.ts).
      object(p, 'arguments', 'arguments', false);
      break;
    }
    case 'prompts/get':
      oneOf(text(p, 'name', 'name', true), known.prompts, 'name');
      stringValues(object(p, 'arguments', 'arguments', false), 'arguments');
      break;
    case 'resources/read':
      text(p, 'uri', 'uri', true);
      break;
    case 'completion/complete': {
      const ref = object(p, 'ref', 'ref', true);
      if (ref) {
        const type = text(ref, 'type', 'ref.type', true);
        if (type === 'ref/prompt') oneOf(text(ref, 'name', 'ref.name', true), known.prompts, 'ref.name');
        else if (type === 'ref/resource') text(ref, 'uri', 'ref.uri', true);
        else if (type !== undefined) fail('ref.type', type, MESSAGES.oneOf(['ref/prompt', 'ref/resource'], false));
      }
      const argument = object(p, 'argument', 'argument', true);
      if (argument) {
        text(argument, 'name', 'argument.name', true);
        text(argument, 'value', 'argument.value', true);
      }
      const context = object(p, 'context', 'context', false);
      if (context) stringValues(object(context, 'arguments', 'context.arguments', false), 'context.arguments');
      break;
    }
    default:
      break;
  }
  return errors;
}

/** The JSON-RPC error answering `id` for these errors: -32602, the REST problem's detail as message, the problem as data. */
export function invalidParamsError(id: unknown, errors: ParameterError[], problemBase: string, lang: Lang) {
  const detail = MESSAGES.invalidParameters(errors.map((e) => ({ parameter: e.parameter, message: e.rule.message })));
  return {
    jsonrpc: '2.0' as const,
    id: id ?? null,
    error: { code: INVALID_PARAMS, message: detail[lang], data: problemObject('invalid-parameter', problemBase, '', detail, lang, { errors }) },
  };
}
