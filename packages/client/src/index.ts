/**
 * A typed client for the Directory API: fetch only, no runtime dependency, for Node.js 20+
 * and browsers. Its types come from the server's OpenAPI document (schema.ts, generated);
 * what is written here is the behaviour: query strings, following `links.next`, waiting out
 * a 429 as its `Retry-After` asks, revalidating with `If-None-Match`, and turning RFC 9457
 * problem bodies into `ProblemError`.
 */
import type { paths } from './schema.js';

export type { paths } from './schema.js';

type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Responses<P extends keyof paths> = Get<P> extends { responses: infer R } ? R : never;
type JsonOf<R> = R extends { content: infer C } ? C[keyof C] : never;
/** The body of a 200 from `P`. */
export type Ok<P extends keyof paths> = Responses<P> extends { 200: infer R } ? JsonOf<R> : never;
type QueryOf<P extends keyof paths> = Get<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/**
 * The parameters that take several values, comma-separated in the URL (`a,b` = any of them):
 * the same as the MCP server's list arguments, and `facets`.
 */
export const LIST_PARAMETERS = [
  'category', 'pricing', 'facets', 'level', 'subject', 'for_pupils', 'pupil_use', 'pupil_account', 'generative_ai',
  'trains_on_user_data', 'data_location', 'institutional_access', 'platform', 'language', 'tag',
] as const;
export type ListParameter = (typeof LIST_PARAMETERS)[number];
/** The texts the API reads as booleans. */
type BooleanText = '1' | 'true' | '0' | 'false';

/**
 * A route's query parameters, each in its natural type and in the text the API reads (one
 * rule for every parameter, as for the MCP tools): a boolean `true`/`false` or
 * `"true"`/`"false"`/`"1"`/`"0"`; a list `['a', 'b']` or `"a,b"`; a number `2` or `"2"`.
 */
export type QueryInput<Q> = {
  [K in keyof Q]?:
    | Q[K]
    | ([NonNullable<Q[K]>] extends [BooleanText] ? boolean : never)
    | ([NonNullable<Q[K]>] extends [number] ? `${number}` : never)
    | (K extends ListParameter ? readonly string[] : never);
};

const TOOLS = '/api/v1/directory/tools';
const TOOL = '/api/v1/directory/tools/{slug}';
const COLLECTIONS = '/api/v1/directory/collections';
const COLLECTION = '/api/v1/directory/collections/{slug}';
const CATEGORIES = '/api/v1/directory/categories';

export type ToolList = Ok<typeof TOOLS>;
export type ToolSummary = ToolList['data'][number];
export type ToolDetail = Ok<typeof TOOL>;
export type Tool = ToolDetail['data'];
export type CollectionList = Ok<typeof COLLECTIONS>;
export type CollectionDetail = Ok<typeof COLLECTION>;
export type CategoryList = Ok<typeof CATEGORIES>;
export type ToolsQuery = QueryInput<QueryOf<typeof TOOLS>>;
export type CollectionsQuery = QueryInput<QueryOf<typeof COLLECTIONS>>;
/** An RFC 9457 problem as the API sends it (404 of GET /tools/{slug}: the same shape for every status). */
export type Problem = Responses<typeof TOOL> extends { 404: infer R } ? JsonOf<R> : never;

/** A refusal from the API: its problem body, typed, with the status. */
export class ProblemError extends Error {
  readonly status: number;
  /** Stable identifier of the kind of problem (`…/problems/not-found`): branch on this. */
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  /** For a 400: every parameter at fault, with a suggestion when a value is close to a valid one. */
  readonly errors: Problem['errors'];
  /** For an unknown slug: the nearest published slugs. */
  readonly suggestions: Problem['suggestions'];
  /** For a 429: the seconds the server asked to wait. */
  readonly retryAfter: number | undefined;
  readonly problem: Problem;

  constructor(problem: Problem, retryAfter?: number) {
    super(`${problem.status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`);
    this.name = 'ProblemError';
    this.problem = problem;
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.errors = problem.errors;
    this.suggestions = problem.suggestions;
    this.retryAfter = retryAfter;
  }
}

export interface ClientOptions {
  /** Where the API is, e.g. `https://api.example.org` (without `/api/v1/directory`). */
  baseUrl: string;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Retries of a request answered 429, each after its `Retry-After`. Default 3. */
  maxRetries?: number;
  /** A 429 asking to wait longer than this is thrown at once instead. Default 60 000 ms. */
  maxRetryDelayMs?: number;
  /**
   * How many responses to keep with their ETag, so that a repeated request sends
   * `If-None-Match` and a 304 returns the kept body. Default 500; 0 turns it off (a
   * browser's own HTTP cache already revalidates).
   */
  cacheSize?: number;
  /** Sent with every request (e.g. a `User-Agent` naming your application, in Node.js). */
  headers?: Record<string, string>;
}

type Scalar = string | number | boolean;

/** `?a=1&b=x,y` from a query object: undefined and empty lists left out, arrays comma-joined. */
export function queryString(query: Record<string, Scalar | readonly Scalar[] | null | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (Array.isArray(value) && value.length === 0) continue;
    params.append(name, text);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Milliseconds a `Retry-After` value asks for (whole seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class DirectoryClient {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly cacheSize: number;
  private readonly headers: Record<string, string>;
  /** URL → its last 200 and ETag, oldest first (a Map keeps insertion order: an LRU). */
  private readonly cache = new Map<string, { etag: string; body: unknown }>();

  constructor(options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    // Bound to globalThis: a browser's fetch throws when called as a method of another object.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.cacheSize = options.cacheSize ?? 500;
    this.headers = options.headers ?? {};
  }

  /** One page of published tools. */
  listTools(query: ToolsQuery = {}): Promise<ToolList> {
    return this.get<ToolList>(`${TOOLS}${queryString(query)}`);
  }

  /** One tool in full; a former slug is followed to the current one. */
  getTool(slug: string): Promise<ToolDetail> {
    return this.get<ToolDetail>(`${TOOLS}/${encodeURIComponent(slug)}`);
  }

  listCollections(query: CollectionsQuery = {}): Promise<CollectionList> {
    return this.get<CollectionList>(`${COLLECTIONS}${queryString(query)}`);
  }

  /** One collection with all its tools, in editorial order. */
  getCollection(slug: string): Promise<CollectionDetail> {
    return this.get<CollectionDetail>(`${COLLECTIONS}/${encodeURIComponent(slug)}`);
  }

  listCategories(): Promise<CategoryList> {
    return this.get<CategoryList>(CATEGORIES);
  }

  /**
   * Every tool matching `query`, page after page, following each page's `links.next`:
   * `for await (const tool of client.tools({ q: 'quiz' }))`. Stopping the loop stops the
   * requests.
   */
  async *tools(query: ToolsQuery = {}): AsyncGenerator<ToolSummary, void, undefined> {
    let page: ToolList = await this.listTools(query);
    for (;;) {
      yield* page.data;
      const next = page.links.next;
      if (next === null || next === undefined || page.data.length === 0) return;
      page = await this.get<ToolList>(next);
    }
  }

  /** GETs `pathOrUrl` (a path under the base, or an absolute URL the API gave) as JSON. */
  async get<T>(pathOrUrl: string): Promise<T> {
    const url = /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${this.base}${pathOrUrl}`;
    const cached = this.cacheSize > 0 ? this.cache.get(url) : undefined;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json', ...this.headers };
      if (cached !== undefined) headers['if-none-match'] = cached.etag;
      const response = await this.fetchImpl(url, { method: 'GET', headers });
      if (response.status === 304 && cached !== undefined) {
        await response.body?.cancel();
        this.remember(url, cached.etag, cached.body);
        return cached.body as T;
      }
      if (response.ok) {
        const body = (await response.json()) as T;
        const etag = response.headers.get('etag');
        if (etag !== null && this.cacheSize > 0) this.remember(url, etag, body);
        return body;
      }
      const wait = response.status === 429 ? retryAfterMs(response.headers.get('retry-after')) : undefined;
      if (response.status === 429 && attempt < this.maxRetries && wait !== undefined && wait <= this.maxRetryDelayMs) {
        await response.body?.cancel();
        await sleep(wait);
        continue;
      }
      throw new ProblemError(await problemOf(response), wait === undefined ? undefined : Math.ceil(wait / 1000));
    }
  }

  private remember(url: string, etag: string, body: unknown): void {
    this.cache.delete(url);
    this.cache.set(url, { etag, body });
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** The problem body of a refusal, or one made from the status when the body is not one. */
async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (typeof body === 'object' && body !== null && typeof body.type === 'string' && typeof body.title === 'string') {
      return { ...body, status: typeof body.status === 'number' ? body.status : response.status } as Problem;
    }
  } catch {
    // not JSON: described below
  }
  return { type: 'about:blank', title: response.statusText || `HTTP ${response.status}`, status: response.status, detail: text.slice(0, 500), instance: new URL(response.url || 'http://invalid/').pathname } as Problem;
}

/** `createClient({ baseUrl })`: the same as `new DirectoryClient(...)`. */
export function createClient(options: ClientOptions): DirectoryClient {
  return new DirectoryClient(options);
}
