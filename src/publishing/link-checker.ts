/**
 * Checks URLs with real HTTP requests, as a careful client would: HEAD first (no body to
 * download) and GET when a server refuses or mishandles HEAD; redirects followed one hop at
 * a time so the chain can be reported; a timeout per request; 429 and 503 retried after the
 * server's Retry-After (RFC 9110 §10.2.3) or an exponential backoff; a bounded number of
 * requests per host; a User-Agent that says who is asking and where to read about it.
 * Every hop is checked against the address policy (address-policy.ts) after DNS
 * resolution: a link, or a redirect, to a loopback, private or link-local address is
 * reported broken without a byte sent to it.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LINK_STATUSES, type LinkStatus } from '../domain.js';
import { AddressPolicy, RefusedAddressError } from './address-policy.js';
import { KeyedSemaphore, Semaphore } from './limits.js';

export interface LinkCheckOptions {
  /** Time allowed for one request's answer (headers), in ms. */
  timeoutMs: number;
  /** Requests in flight at once, overall and to one host. */
  concurrency: number;
  perHost: number;
  /** Extra attempts after a 429 or 503. */
  retries: number;
  /** First backoff when no Retry-After is given; doubled each time. */
  backoffMs: number;
  /** A Retry-After longer than this is not waited for: the URL is reported as it answered. */
  maxRetryAfterMs: number;
  maxRedirects: number;
  userAgent: string;
  /** Which addresses may be fetched (default: public ones only). */
  addresses?: AddressPolicy;
}

export const DEFAULT_LINK_CHECK: Omit<LinkCheckOptions, 'userAgent'> = {
  timeoutMs: 15_000,
  concurrency: 16,
  perHost: 2,
  retries: 2,
  backoffMs: 2_000,
  maxRetryAfterMs: 120_000,
  maxRedirects: 10,
};

export interface Hop {
  url: string;
  status: number;
}

export interface UrlCheck {
  url: string;
  status: LinkStatus;
  /** The last HTTP status received, or null when none was. */
  http_status: number | null;
  /** Where the redirects ended (null without redirects). */
  final_url: string | null;
  /** Each redirect answered, in order: the URL asked and its 3xx status. */
  redirects: Hop[];
  /** Why it is broken or unreachable, in words. */
  error: string | null;
  /** Requests sent, retries and the GET after a refused HEAD included. */
  requests: number;
  ms: number;
}

/** Worse first when tools and runs are summed up: a broken link needs an editor, an unreachable one may be a passing outage. */
const SEVERITY: Record<LinkStatus, number> = { ok: 0, redirected: 1, unreachable: 2, broken: 3 };

export function worstStatus(statuses: readonly LinkStatus[]): LinkStatus {
  return statuses.reduce<LinkStatus>((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst), 'ok');
}

export function countStatuses(statuses: readonly LinkStatus[]): Record<LinkStatus, number> {
  const counts = Object.fromEntries(LINK_STATUSES.map((s) => [s, 0])) as Record<LinkStatus, number>;
  for (const s of statuses) counts[s]++;
  return counts;
}

/** Checks many URLs within the concurrency limits; one check per distinct URL. */
export class LinkChecker {
  private readonly all: Semaphore;
  private readonly hosts: KeyedSemaphore;
  private readonly seen = new Map<string, Promise<UrlCheck>>();
  private readonly addresses: AddressPolicy;

  constructor(private readonly options: LinkCheckOptions) {
    this.addresses = options.addresses ?? new AddressPolicy();
    this.all = new Semaphore(options.concurrency);
    this.hosts = new KeyedSemaphore(options.perHost);
  }

  check(url: string): Promise<UrlCheck> {
    let pending = this.seen.get(url);
    if (!pending) this.seen.set(url, (pending = this.follow(url)));
    return pending;
  }

  private async follow(start: string): Promise<UrlCheck> {
    const began = performance.now();
    const redirects: Hop[] = [];
    let requests = 0;
    let url = start;
    const result = (status: LinkStatus, http: number | null, error: string | null): UrlCheck => ({
      url: start,
      status,
      http_status: http,
      final_url: redirects.length > 0 ? url : null,
      redirects,
      error,
      requests,
      ms: Math.round(performance.now() - began),
    });
    for (;;) {
      let answer: Answer;
      try {
        this.addresses.checkUrl(new URL(url));
        answer = await this.request(url, () => requests++);
      } catch (err) {
        // A link (or a redirect) to an address that is not public is the link's fault.
        if (err instanceof RefusedAddressError) return result('broken', redirects.at(-1)?.status ?? null, redirected(err.message, redirects.length));
        return result('unreachable', null, describeFailure(err, this.options.timeoutMs));
      }
      const { status, location } = answer;
      if (status >= 300 && status < 400 && status !== 304) {
        if (location === null) return result('broken', status, `${status} without a Location header`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return result('broken', status, `${status} to an invalid Location (${location.slice(0, 200)})`);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return result('broken', status, `${status} to a non-HTTP address (${next.protocol})`);
        redirects.push({ url, status });
        if (redirects.some((hop) => hop.url === next.href)) return result('broken', status, `redirect loop back to ${next.href}`);
        if (redirects.length > this.options.maxRedirects) return result('broken', status, `more than ${this.options.maxRedirects} redirects`);
        url = next.href;
        continue;
      }
      if (status >= 400) return result('broken', status, answer.note ?? `HTTP ${status}`);
      // Redirected only when it ended somewhere else: a hop that comes back changes nothing.
      return result(redirects.length > 0 && url !== start ? 'redirected' : 'ok', status, null);
    }
  }

  /** One URL's answer: HEAD, then GET if HEAD is refused; 429/503 retried. Throws when no answer comes. */
  private async request(url: string, counted: () => void): Promise<Answer> {
    const host = new URL(url).host;
    let attempt = 0;
    for (;;) {
      const answer = await this.hosts.run(host, () =>
        this.all.run(async () => {
          counted();
          const head = await this.send(url, 'HEAD');
          // Some servers answer HEAD with 403, 404, 405 or 501 and GET with the page.
          if (head.status < 400 || head.status === 429 || head.status === 503) return head;
          counted();
          return this.send(url, 'GET');
        }),
      );
      if ((answer.status !== 429 && answer.status !== 503) || attempt >= this.options.retries) {
        if (answer.status === 429 || answer.status === 503) answer.note = `HTTP ${answer.status} after ${attempt + 1} attempts`;
        return answer;
      }
      const wait = answer.retryAfterMs ?? this.options.backoffMs * 2 ** attempt;
      if (wait > this.options.maxRetryAfterMs) {
        answer.note = `HTTP ${answer.status}, Retry-After of ${Math.round(wait / 1000)} s is longer than the ${Math.round(this.options.maxRetryAfterMs / 1000)} s this check waits`;
        return answer;
      }
      attempt++;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** One request, its body never read; the connection goes only to an address the policy allows. */
  private send(url: string, method: 'HEAD' | 'GET'): Promise<Answer> {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const port = target.port === '' ? (target.protocol === 'https:' ? 443 : 80) : Number(target.port);
    return new Promise<Answer>((resolve, reject) => {
      const req = request(
        target,
        {
          method,
          agent: false,
          lookup: this.addresses.lookupFor(port),
          signal: AbortSignal.timeout(this.options.timeoutMs),
          headers: { 'user-agent': this.options.userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-language': 'fr,en;q=0.5' },
        },
        (response: IncomingMessage) => {
          // Only the status matters: the body is never read.
          response.destroy();
          const header = (name: string) => {
            const value = response.headers[name];
            return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
          };
          resolve({ status: response.statusCode ?? 0, location: header('location'), retryAfterMs: retryAfterMs(header('retry-after')), note: null });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }
}

interface Answer {
  status: number;
  location: string | null;
  retryAfterMs: number | null;
  note: string | null;
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** No HTTP answer: what happened, in words a publisher can act on. */
function describeFailure(err: unknown, timeoutMs: number): string {
  const error = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = error.cause ?? error;
  const code = cause?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host name not found (${code})`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset';
  if (/CERT|SSL|TLS|ERR_SSL/i.test(code) || /certificate|ssl|tls/i.test(cause?.message ?? '')) return `TLS error: ${cause?.message ?? code}`;
  return (cause?.message ?? error.message ?? String(err)).slice(0, 200);
}

/** A refusal, saying where the chain led when it was a redirect. */
function redirected(message: string, hops: number): string {
  return hops === 0 ? message : `redirect ${message}`;
}
