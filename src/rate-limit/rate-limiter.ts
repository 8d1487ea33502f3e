/**
 * What the HTTP layer needs from a rate limiter. The in-memory sliding log and the Redis
 * one implement it; a decision is synchronous when the backend allows it (memory), so the
 * hot path does not wait on a promise it does not need.
 */

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current rolling window. */
  remaining: number;
  /** Seconds until one more request is allowed: 0 while `remaining` > 0, else ≥ 1. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** `memory`, `redis`, or `memory (redis unavailable)`: for the logs. */
  readonly backend: string;
  /** Whether what keeps the counts answers (always, in memory; Redis's circuit closed): shown by /readyz. */
  readonly reachable: boolean;
  /** Counts one request from `key` if the window has room; refused requests are not counted. */
  hit(key: string): RateDecision | Promise<RateDecision>;
  /** Clients currently tracked in this process's memory (for benchmarks; never published). */
  readonly size?: number;
  close(): Promise<void>;
}

/** Whole seconds until one more request is allowed, at least 1 (RFC 9110 Retry-After). */
export function retryAfter(decision: RateDecision): number {
  return Math.max(1, decision.resetSeconds);
}
