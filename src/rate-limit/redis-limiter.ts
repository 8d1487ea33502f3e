/**
 * The same rolling window as SlidingWindowLimiter, shared by every instance through Redis:
 * one sorted set per client (scores = acceptance times, from Redis's own clock so instances
 * with skewed clocks agree), updated by one Lua script in one round trip.
 *
 * If Redis is unreachable the request is decided by the local limiter instead (logged once,
 * shown by /readyz). The client is set up so that an outage fails fast instead of queueing
 * (PITFALLS.md: ioredis defaults hung 10–42 s).
 *
 * A Redis that stops answering without resetting the connection (a failover, a frozen host)
 * keeps the connection "ready", so every command would wait its full timeout. A circuit
 * breaker stops that: after one failed command Redis is skipped (the local limiter decides
 * at once) and probed with a PING every `retryAfterMs`; the first answered probe puts it back
 * in use. After `reconnectAfter` probes in a row go unanswered the connection is dropped and
 * made again, which also clears replies that were lost (a late or missing reply would
 * otherwise leave every later one a step behind). Health, shown by /readyz, is the outcome
 * of the latest command or probe, not the connection's state.
 *
 * A fallback does not restart a client's budget: the counts Redis last reported for each
 * client are kept (for two windows at most) and seeded into the local window the first time
 * that client is counted locally, so one instance never lets more than `max` through in a
 * window across an outage (docs/security.md).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { RateDecision, RateLimiter } from './rate-limiter.js';
import type { SlidingWindowLimiter } from './sliding-window-limiter.js';

// KEYS[1] = the client's set; ARGV = max, window (ms), unique member suffix.
// Returns { accepted (0/1), count after the decision, oldest score in the window, now }.
const SLIDING_HIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local accepted = 0
if count < max then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  accepted = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return { accepted, count, tonumber(oldest[2] or now), now }
`;

type HitResult = [number, number, number, number];
interface SlidingRedis extends Redis {
  slidingHit(key: string, max: number, windowMs: number, member: string): Promise<HitResult>;
}

export interface RedisLimiterOptions {
  max: number;
  windowMs: number;
  fallback: SlidingWindowLimiter;
  log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>;
  keyPrefix?: string;
  /** Per-command timeout; a slower Redis counts as down. */
  commandTimeoutMs?: number;
  /** After a failed command, Redis is skipped this long, then probed (and every this long after). */
  retryAfterMs?: number;
  /** Unanswered probes in a row after which the connection is dropped and made again. */
  reconnectAfter?: number;
  /** Most clients whose last Redis counts are remembered (per window); past that, new ones are not. */
  maxClients?: number;
}

/** What Redis last said of a client, in this process's clock. */
interface Known {
  count: number;
  oldest: number;
  at: number;
}

/**
 * The last counts Redis reported, per client, in two generations swapped every window: an
 * entry is at most two windows old and nothing has to be swept.
 */
class KnownCounts {
  private current = new Map<string, Known>();
  private previous = new Map<string, Known>();
  private swappedAt = Date.now();

  constructor(
    private readonly windowMs: number,
    private readonly maxClients: number,
  ) {}

  record(key: string, count: number, oldest: number, at: number): void {
    if (at - this.swappedAt >= this.windowMs) {
      this.previous = this.current;
      this.current = new Map();
      this.swappedAt = at;
    }
    const known = this.current.get(key);
    if (known !== undefined) {
      known.count = count;
      known.oldest = oldest;
      known.at = at;
    } else if (this.current.size < this.maxClients) {
      this.current.set(key, { count, oldest, at });
    }
  }

  /** The counts last reported for `key`, forgotten once taken. */
  take(key: string): Known | undefined {
    const known = this.current.get(key) ?? this.previous.get(key);
    if (known === undefined) return undefined;
    this.current.delete(key);
    this.previous.delete(key);
    return known;
  }
}

export class RedisLimiter implements RateLimiter {
  /** Whether the latest command or probe was answered; Redis is skipped while it is not. */
  private healthy = true;
  private unanswered = 0;
  private probeTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private sequence = 0;
  private readonly instance = randomBytes(6).toString('base64url');
  private readonly known: KnownCounts;
  private readonly retryAfterMs: number;
  private readonly reconnectAfter: number;

  private constructor(
    private readonly redis: SlidingRedis,
    private readonly options: RedisLimiterOptions,
  ) {
    this.known = new KnownCounts(options.windowMs, options.maxClients ?? 1_000_000);
    this.retryAfterMs = options.retryAfterMs ?? 2000;
    this.reconnectAfter = options.reconnectAfter ?? 3;
    // A completed handshake is an answer: the ready check's INFO came back.
    redis.on('ready', () => this.answered());
    redis.on('error', (err: Error) => this.failed(err.message));
    redis.on('close', () => this.failed('connection closed'));
  }

  static async connect(url: string, options: RedisLimiterOptions): Promise<RedisLimiter> {
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2000,
      keepAlive: 10_000,
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: true,
    }) as SlidingRedis;
    redis.defineCommand('slidingHit', { numberOfKeys: 1, lua: SLIDING_HIT });
    const limiter = new RedisLimiter(redis, options);
    // Start even if Redis is down: the local limiter serves until it comes up.
    await redis.connect().catch((err: Error) => limiter.failed(`not reachable at start: ${err.message}`));
    return limiter;
  }

  get backend(): string {
    return this.reachable ? 'redis' : 'memory (redis unavailable)';
  }

  get reachable(): boolean {
    return this.healthy && this.redis.status === 'ready';
  }

  hit(key: string): RateDecision | Promise<RateDecision> {
    if (!this.healthy || this.redis.status !== 'ready') {
      if (this.redis.status !== 'ready') this.failed(`status ${this.redis.status}`);
      return this.local(key);
    }
    const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % 1e9)}`;
    return this.redis
      .slidingHit(`${this.options.keyPrefix ?? 'rl:'}${key}`, this.options.max, this.options.windowMs, member)
      .then(([accepted, count, oldest, now]) => {
        const at = Date.now();
        this.known.record(key, count, at - (now - oldest), at);
        const remaining = Math.max(0, this.options.max - count);
        const untilFree = Math.max(1, Math.ceil((oldest + this.options.windowMs - now) / 1000));
        return { allowed: accepted === 1, limit: this.options.max, remaining, resetSeconds: untilFree };
      })
      .catch((err: unknown) => {
        this.failed((err as Error).message);
        return this.local(key);
      });
  }

  /** Decides locally, first adding what Redis last said this client had spent. */
  private local(key: string): RateDecision {
    const known = this.known.take(key);
    if (known !== undefined && known.count > 0) {
      // The oldest at its time, the others as late as they can have been: never fewer, never earlier.
      const times = [known.oldest];
      for (let i = 1; i < known.count; i++) times.push(known.at);
      this.options.fallback.seed(key, times);
    }
    return this.options.fallback.hit(key);
  }

  private answered(): void {
    this.unanswered = 0;
    if (this.healthy) return;
    this.healthy = true;
    clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    this.options.log.info('rate limiter: Redis answers again; counts are shared again');
  }

  private failed(reason: string): void {
    if (this.closed) return;
    if (this.healthy) {
      this.healthy = false;
      this.options.log.warn({ reason }, 'rate limiter: Redis unavailable; counting locally until it answers again');
    }
    this.probeTimer ??= setTimeout(() => this.probe(), this.retryAfterMs).unref();
  }

  /** One PING while Redis is skipped; reconnects after `reconnectAfter` unanswered in a row. */
  private probe(): void {
    this.probeTimer = undefined;
    if (this.closed || this.healthy) return;
    const again = () => {
      if (!this.closed && !this.healthy) this.probeTimer ??= setTimeout(() => this.probe(), this.retryAfterMs).unref();
    };
    const status = this.redis.status;
    if (status === 'ready') {
      this.redis.ping().then(
        () => this.answered(),
        () => {
          this.unanswered++;
          this.reconnectIfStuck();
          again();
        },
      );
      return;
    }
    // Reconnecting on its own (ioredis's retry strategy) is progress; a handshake that
    // never completes ('connect': connected, no answer to the ready check) is not.
    if (status === 'connect' || status === 'connecting') this.unanswered++;
    this.reconnectIfStuck();
    again();
  }

  private reconnectIfStuck(): void {
    if (this.unanswered < this.reconnectAfter) return;
    this.unanswered = 0;
    this.options.log.warn('rate limiter: Redis does not answer; reconnecting');
    this.redis.disconnect(true);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.probeTimer);
    this.redis.disconnect();
    await this.options.fallback.close();
  }
}
