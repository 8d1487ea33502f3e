/**
 * An exact rolling window: each client's accepted requests are kept as a log of timestamps,
 * and a request is accepted only if fewer than `max` were accepted in the `windowMs` before
 * it. Unlike a fixed window it never lets 2 × max through across a window edge.
 *
 * Memory: a client with one request in the window costs a Map entry and a number; with
 * more, a small object holding a ring of timestamps: a Float64Array that doubles as needed
 * up to `max` slots and is then reused in place, so a busy client costs no allocation per
 * request (a growing, sliced array of a busy client's timestamps made the garbage collector
 * the largest cost of a request under load: docs/performance.md). Clients idle for a
 * whole window are dropped, oldest first, and at most `maxClients` are tracked: past that,
 * new clients are refused until room frees up, rather than forgetting active ones (which
 * would let them start again from zero).
 *
 * Order: the Map is kept in the order clients were last *moved* to its end, and a busy
 * client is moved at most once per tenth of a window, not on every request. Moving is a
 * delete and a set; on every request, the delete shrank and rebuilt the Map's table each
 * time, and once that table had been promoted to the old generation (any idle spell does
 * it) V8 built each new table there too: a full GC a second and a worse tail under load
 * until the process restarted (docs/performance.md, "The limiter's Map"). A client's last
 * acceptance is therefore at most a tenth of a window after its place in the order, which
 * is all the sweep needs to stop early.
 */
import type { RateDecision, RateLimiter } from './rate-limiter.js';

export interface SlidingWindowOptions {
  max: number;
  windowMs: number;
  maxClients?: number;
  now?: () => number;
}

/**
 * Timestamps of accepted requests in a ring: `count` of them, the oldest at `head`; `moved`
 * is when the client was last moved to the end of the Map. A client with a single request
 * in the window is a bare timestamp instead, which is also when it was moved.
 */
interface Log {
  times: Float64Array;
  head: number;
  count: number;
  moved: number;
}

const FIRST_RING = 4;

function newest(log: Log): number {
  const i = log.head + log.count - 1;
  return log.times[i < log.times.length ? i : i - log.times.length]!;
}

export class SlidingWindowLimiter implements RateLimiter {
  readonly backend = 'memory';
  readonly reachable = true;
  private readonly clients = new Map<string, number | Log>();
  private readonly max: number;
  private readonly windowMs: number;
  /** A busy client is moved to the end of the Map at most this often. */
  private readonly moveEveryMs: number;
  private readonly maxClients: number;
  private readonly now: () => number;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(options: SlidingWindowOptions) {
    this.max = options.max;
    this.windowMs = options.windowMs;
    this.moveEveryMs = options.windowMs / 10;
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
      this.touch(key, this.ring(entry, now));
      return this.decision(true, 2, entry, now);
    }

    const log = entry;
    const times = log.times;
    while (log.count > 0 && times[log.head]! <= cutoff) {
      if (++log.head === times.length) log.head = 0;
      log.count--;
    }
    if (log.count >= this.max) return this.decision(false, log.count, times[log.head]!, now);
    if (log.count === 0) {
      this.touch(key, now); // back to a bare timestamp
      return this.decision(true, 1, now, now);
    }
    this.append(log, now);
    if (now - log.moved >= this.moveEveryMs) {
      log.moved = now;
      this.touch(key, log);
    }
    return this.decision(true, log.count, log.times[log.head]!, now);
  }

  /**
   * Adds requests this process did not count itself (those a shared store accepted before
   * it became unreachable: redis-limiter.ts) to `key`'s window, so a fallback to this
   * limiter does not hand the client a fresh budget. Times are in this limiter's clock;
   * those out of the window are ignored, later ones count as now, and at most `max` are kept.
   */
  seed(key: string, times: readonly number[]): void {
    const now = this.now();
    const cutoff = now - this.windowMs;
    const all: number[] = [];
    for (const t of times) if (t > cutoff) all.push(Math.min(t, now));
    if (all.length === 0) return;
    const entry = this.clients.get(key);
    if (entry === undefined && this.clients.size >= this.maxClients) {
      this.sweep();
      if (this.clients.size >= this.maxClients) return;
    }
    if (typeof entry === 'number') {
      if (entry > cutoff) all.push(entry);
    } else if (entry !== undefined) {
      for (let i = 0; i < entry.count; i++) {
        const j = entry.head + i;
        const t = entry.times[j < entry.times.length ? j : j - entry.times.length]!;
        if (t > cutoff) all.push(t);
      }
    }
    all.sort((a, b) => a - b);
    const kept = all.length > this.max ? all.slice(all.length - this.max) : all;
    const times64 = new Float64Array(Math.max(kept.length, Math.min(FIRST_RING, this.max)));
    times64.set(kept);
    this.touch(key, { times: times64, head: 0, count: kept.length, moved: now });
  }

  private ring(first: number, second: number): Log {
    const times = new Float64Array(Math.min(FIRST_RING, this.max));
    times[0] = first;
    times[1] = second;
    return { times, head: 0, count: 2, moved: second };
  }

  /** Adds `now` at the end of the ring, doubling it (up to `max` slots) when full. */
  private append(log: Log, now: number): void {
    let times = log.times;
    if (log.count === times.length) {
      const grown = new Float64Array(Math.min(times.length * 2, this.max));
      grown.set(times.subarray(log.head));
      grown.set(times.subarray(0, log.head), times.length - log.head);
      log.times = times = grown;
      log.head = 0;
    }
    const i = log.head + log.count;
    times[i < times.length ? i : i - times.length] = now;
    log.count++;
  }

  /** Moves the client to the end of the Map, which stays ordered by last acceptance. */
  private touch(key: string, value: number | Log): void {
    this.clients.delete(key);
    this.clients.set(key, value);
  }

  private decision(allowed: boolean, count: number, oldest: number, now: number): RateDecision {
    const remaining = Math.max(0, this.max - count);
    const untilFree = Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    // RateLimit-Reset: when the oldest request counted leaves the window and gives one back —
    // the whole window on a client's first request, never 0 (issue 31).
    return { allowed, limit: this.max, remaining, resetSeconds: untilFree };
  }

  /**
   * The refusal of a newcomer while the table is full. Room frees up when the first
   * client in the Map leaves the window, if it makes no further request; the clients
   * after it were moved later, so none can leave more than a tenth of a window before.
   */
  private full(now: number): RateDecision {
    const first = this.clients.values().next().value as number | Log;
    const last = typeof first === 'number' ? first : newest(first);
    return { allowed: false, limit: this.max, remaining: 0, resetSeconds: Math.max(1, Math.ceil((last + this.windowMs - now) / 1000)) };
  }

  /**
   * Drops clients whose last accepted request has left the window. The walk stops at the
   * first client moved after the cutoff: every client after it was moved later still, and
   * none has left the window. Before that, it passes over at most the clients moved in
   * the tenth of a window before the cutoff.
   */
  sweep(): void {
    const cutoff = this.now() - this.windowMs;
    for (const [key, value] of this.clients) {
      const last = typeof value === 'number' ? value : newest(value);
      if (last <= cutoff) this.clients.delete(key);
      else if ((typeof value === 'number' ? value : value.moved) > cutoff) break;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.clients.clear();
  }
}
