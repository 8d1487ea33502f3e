/**
 * The same rolling window as SlidingWindowLimiter, shared by every instance through Redis:
 * one sorted set per client (scores = acceptance times, from Redis's own clock so instances
 * with skewed clocks agree), updated by one Lua script in one round trip.
 *
 * If Redis is unreachable the request is decided by the local limiter instead (logged once,
 * shown by /readyz), and Redis is used again as soon as it answers. The client is set up so
 * that an outage fails fast instead of queueing (PITFALLS.md: ioredis defaults hung 10–42 s).
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
  /** Per-command timeout; a slower Redis counts as down for that request. */
  commandTimeoutMs?: number;
}

export class RedisLimiter implements RateLimiter {
  private degraded = false;
  private sequence = 0;
  private readonly instance = randomBytes(6).toString('base64url');

  private constructor(
    private readonly redis: SlidingRedis,
    private readonly options: RedisLimiterOptions,
  ) {
    redis.on('ready', () => {
      if (this.degraded) options.log.info('rate limiter: Redis is back; counts are shared again');
      this.degraded = false;
    });
    redis.on('error', () => this.degrade('connection error'));
  }

  static async connect(url: string, options: RedisLimiterOptions): Promise<RedisLimiter> {
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: true,
    }) as SlidingRedis;
    redis.defineCommand('slidingHit', { numberOfKeys: 1, lua: SLIDING_HIT });
    const limiter = new RedisLimiter(redis, options);
    // Start even if Redis is down: the local limiter serves until it comes up.
    await redis.connect().catch(() => limiter.degrade('not reachable at start'));
    return limiter;
  }

  get backend(): string {
    return this.degraded || this.redis.status !== 'ready' ? 'memory (redis unavailable)' : 'redis';
  }

  hit(key: string): RateDecision | Promise<RateDecision> {
    if (this.redis.status !== 'ready') {
      this.degrade(`status ${this.redis.status}`);
      return this.options.fallback.hit(key);
    }
    const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % 1e9)}`;
    return this.redis
      .slidingHit(`${this.options.keyPrefix ?? 'rl:'}${key}`, this.options.max, this.options.windowMs, member)
      .then(([accepted, count, oldest, now]) => {
        const remaining = Math.max(0, this.options.max - count);
        const untilFree = Math.max(1, Math.ceil((oldest + this.options.windowMs - now) / 1000));
        return { allowed: accepted === 1, limit: this.options.max, remaining, resetSeconds: accepted === 1 && remaining > 0 ? 0 : untilFree };
      })
      .catch((err: unknown) => {
        this.degrade((err as Error).message);
        return this.options.fallback.hit(key);
      });
  }

  private degrade(reason: string): void {
    if (this.degraded) return;
    this.degraded = true;
    this.options.log.warn({ reason }, 'rate limiter: Redis unavailable; counting locally until it returns');
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.options.fallback.close();
  }
}
