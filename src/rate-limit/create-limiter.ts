/** Chooses the limiter the configuration asks for. */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { RateLimiter } from './rate-limiter.js';
import { SlidingWindowLimiter } from './sliding-window-limiter.js';

/**
 * The limiter of one budget: the API's (`RATE_LIMIT_*`, Redis keys `rl:`) or the catalogue
 * pages' (`PAGE_RATE_LIMIT_MAX`, Redis keys `rlp:`), each in memory or in the same Redis.
 */
export async function createLimiter(config: Config, log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>, budget: 'api' | 'pages' = 'api'): Promise<RateLimiter | null> {
  const { max, windowMs, maxClients } = budget === 'api' ? config.rateLimit : config.pageRateLimit;
  if (max === 0) return null;
  const local = new SlidingWindowLimiter({ max, windowMs, maxClients });
  if (config.redisUrl === null) return local;
  const { RedisLimiter } = await import('./redis-limiter.js');
  return RedisLimiter.connect(config.redisUrl, { max, windowMs, maxClients, fallback: local, log, keyPrefix: budget === 'api' ? 'rl:' : 'rlp:', ...config.redis });
}
