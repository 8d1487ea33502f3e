/** Chooses the limiter the configuration asks for. */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { RateLimiter } from './rate-limiter.js';
import { SlidingWindowLimiter } from './sliding-window-limiter.js';

export async function createLimiter(config: Config, log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>): Promise<RateLimiter | null> {
  const { max, windowMs, maxClients } = config.rateLimit;
  if (max === 0) return null;
  const local = new SlidingWindowLimiter({ max, windowMs, maxClients });
  if (config.redisUrl === null) return local;
  const { RedisLimiter } = await import('./redis-limiter.js');
  return RedisLimiter.connect(config.redisUrl, { max, windowMs, maxClients, fallback: local, log, ...config.redis });
}
