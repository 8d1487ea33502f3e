import { STATUS_CODES } from 'node:http';

/**
 * The one catalogue of errors the API answers with, as RFC 9457 problem details
 * (https://www.rfc-editor.org/rfc/rfc9457). Every 4xx/5xx body comes from here.
 */

export const PROBLEMS = {
  'invalid-parameter': { status: 400, title: 'Invalid query parameter' },
  'bad-request': { status: 400, title: 'Bad request' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'request-timeout': { status: 408, title: 'Request timeout' },
  'expectation-failed': { status: 417, title: 'Expectation failed' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'headers-too-large': { status: 431, title: 'Request header fields too large' },
  'internal-error': { status: 500, title: 'Internal server error' },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

export interface ParameterError {
  parameter: string;
  value: string;
  message: string;
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
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.status = PROBLEMS[code].status;
  }
}

const MAX_INSTANCE = 512;

export function problemBody(
  code: ProblemCode,
  base: string,
  instance: string,
  detail: string,
  extras: ProblemExtras = {},
  requestId?: string,
  status: number = PROBLEMS[code].status,
): string {
  const title = status === PROBLEMS[code].status ? PROBLEMS[code].title : (STATUS_CODES[status] ?? PROBLEMS[code].title);
  return JSON.stringify({
    type: `${base}/problems/${code}`,
    title,
    status,
    detail,
    // No instance when there is no request line to name (a request Node could not parse).
    ...(instance === '' ? {} : { instance: instance.length > MAX_INSTANCE ? `${instance.slice(0, MAX_INSTANCE)}…` : instance }),
    ...extras,
    ...(requestId !== undefined && status >= 500 ? { request_id: requestId } : {}),
  });
}
