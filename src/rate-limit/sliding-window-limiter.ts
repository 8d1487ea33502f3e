/**
 * An exact rolling window: each client's accepted requests are kept as a log of timestamps,
 * and a request is accepted only if fewer than `max` were accepted in the `windowMs` before
 * it. Unlike a fixed window it never lets 2 × max through across a window edge.
 *
 * Memory: a client with one request in the window costs a Map entry and a number; with
 * more, a small object holding a ring of timestamps (at most `max`). Clients idle for a
 * whole window are dropped, oldest first (the Map is kept in order of last acceptance), and
 * at most `maxClients` are tracked: past that, new clients are refused until room frees up,
 * rather than forgetting active ones (which would let them start again from zero).
 */
import type { RateDecision, RateLimiter } from './rate-limiter.js';

export interface SlidingWindowOptions {
  max: number;
  windowMs: number;
  maxClients?: number;
  now?: () => number;
}

/** Timestamps of accepted requests, oldest at `head`. */
interface Log {
  times: number[];
  head: number;
}

export class SlidingWindowLimiter implements RateLimiter {
  readonly backend = 'memory';
  private readonly clients = new Map<string, number | Log>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly maxClients: number;
  private readonly now: () => number;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(options: SlidingWindowOptions) {
    this.max = options.max;
    this.windowMs = options.windowMs;
    this.maxClients = options.maxClients ?? 1_000_000;
    this.now = options.now ?? Date.now;
    this.sweepTimer = setInterval(() => this.sweep(), Math.min(this.windowMs, 1000));
    this.sweepTimer.unref();
  }

  /** Clients currently tracked (for tests and /readyz). */
  get size(): number {
    return this.clients.size;
  }

  hit(key: string): RateDecision {
    const now = this.now();
    const cutoff = now - this.windowMs;
    const entry = this.clients.get(key);

    if (entry === undefined) {
      if (this.clients.size >= this.maxClients) {
        this.sweep();
        if (this.clients.size >= this.maxClients) return this.full(now);
      }
      this.clients.set(key, now);
      return this.decision(true, 1, now, now);
    }

    if (typeof entry === 'number') {
      if (entry <= cutoff) {
        this.touch(key, now);
        return this.decision(true, 1, now, now);
      }
      if (this.max <= 1) return this.decision(false, 1, entry, now);
      this.touch(key, { times: [entry, now], head: 0 });
      return this.decision(true, 2, entry, now);
    }

    const log = entry;
    while (log.head < log.times.length && log.times[log.head]! <= cutoff) log.head++;
    const count = log.times.length - log.head;
    if (count >= this.max) return this.decision(false, count, log.times[log.head]!, now);
    if (log.head > 32 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    log.times.push(now);
    this.touch(key, count === 0 ? now : log);
    return this.decision(true, count + 1, count === 0 ? now : log.times[log.head]!, now);
  }

  /** Moves the client to the end of the Map, which stays ordered by last acceptance. */
  private touch(key: string, value: number | Log): void {
    this.clients.delete(key);
    this.clients.set(key, value);
  }

  private decision(allowed: boolean, count: number, oldest: number, now: number): RateDecision {
    const remaining = Math.max(0, this.max - count);
    const untilFree = Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    return { allowed, limit: this.max, remaining, resetSeconds: remaining > 0 && allowed ? 0 : untilFree };
  }

  private full(now: number): RateDecision {
    const first = this.clients.values().next().value as number | Log;
    const last = typeof first === 'number' ? first : first.times[first.times.length - 1]!;
    return { allowed: false, limit: this.max, remaining: 0, resetSeconds: Math.max(1, Math.ceil((last + this.windowMs - now) / 1000)) };
  }

  /** Drops clients whose last accepted request has left the window. */
  sweep(): void {
    const cutoff = this.now() - this.windowMs;
    for (const [key, value] of this.clients) {
      const last = typeof value === 'number' ? value : value.times[value.times.length - 1]!;
      if (last > cutoff) break;
      this.clients.delete(key);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.clients.clear();
  }
}
