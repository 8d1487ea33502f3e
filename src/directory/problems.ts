/**
 * The one catalogue of errors the API answers with, as RFC 9457 problem details
 * (https://www.rfc-editor.org/rfc/rfc9457). Every 4xx/5xx body comes from here, its texts
 * from messages.ts in the language asked for.
 */
import { PROBLEMS, titleOf, type Lang, type ProblemCode, type Rule, type Text } from './messages.js';

export { PROBLEMS, type ProblemCode } from './messages.js';

/** A parameter that has a value it cannot take. */
export interface ParameterError {
  parameter: string;
  value: string;
  /** A stable code for programs (`not_in_enum`, `repeated`, …) and the text. */
  rule: Rule;
  suggestion?: string;
}

export interface ProblemExtras {
  errors?: ParameterError[];
  suggestions?: string[];
}

/** Thrown by handlers; the error handler turns it into a problem response. */
export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    /** In every language; `message` (logs, other front doors) is the English one. */
    readonly detail: Text,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail.en);
    this.name = 'ProblemError';
    this.status = PROBLEMS[code].status;
  }
}

const MAX_INSTANCE = 512;

/** The problem object in `lang`: the same machine fields in every language. */
export function problemObject(
  code: ProblemCode,
  base: string,
  instance: string,
  detail: Text,
  lang: Lang,
  extras: ProblemExtras = {},
  requestId?: string,
  status: number = PROBLEMS[code].status,
): Record<string, unknown> {
  return {
    type: `${base}/problems/${code}`,
    title: titleOf(code, status)[lang],
    status,
    detail: detail[lang],
    // No instance when there is no request line to name (a request Node could not parse).
    ...(instance === '' ? {} : { instance: instance.length > MAX_INSTANCE ? `${instance.slice(0, MAX_INSTANCE)}…` : instance }),
    ...(extras.errors
      ? {
          errors: extras.errors.map((e) => ({
            parameter: e.parameter,
            value: e.value.slice(0, 200),
            code: e.rule.code,
            message: e.rule.message[lang],
            ...(e.suggestion !== undefined ? { suggestion: e.suggestion } : {}),
          })),
        }
      : {}),
    ...(extras.suggestions ? { suggestions: extras.suggestions } : {}),
    ...(requestId !== undefined && status >= 500 ? { request_id: requestId } : {}),
  };
}

export function problemBody(...args: Parameters<typeof problemObject>): string {
  return JSON.stringify(problemObject(...args));
}
