/**
 * node --expose-gc --import tsx bench/limiter-memory.ts [clients]
 *
 * Memory of the in-memory limiter: bytes per active client, resident memory after N
 * distinct clients made one request each (as behind a trusted proxy: distinct keys), and
 * after the window has passed and idle clients were swept.
 */
import { clientKey } from '../src/rate-limit/client-key.js';
import { SlidingWindowLimiter } from '../src/rate-limit/sliding-window-limiter.js';

const n = Number(process.argv[2] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
const measure = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};

const clock = { now: 0 };
const limiter = new SlidingWindowLimiter({ max: 60, windowMs: 60_000, maxClients: n * 2, now: () => clock.now });
const before = measure();
for (let i = 0; i < n; i++) {
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  limiter.hit(clientKey(i % 2 ? ip : `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`));
}
const one = measure();
// A second request from a tenth of them: these clients now hold a timestamp log.
for (let i = 1; i < n; i += 10) limiter.hit(clientKey(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`));
const some = measure();
clock.now = 60_001;
limiter.sweep();
const after = measure();
console.log(`clients tracked after the burst: ${n.toLocaleString('en-US')}`);
console.log(`heap per client, one request each: ${((one.heap - before.heap) / n).toFixed(0)} bytes`);
console.log(`heap per client with two requests: ${((some.heap - one.heap) / (n / 10)).toFixed(0)} extra bytes`);
console.log(`resident memory: before ${mib(before.rss)} MiB, after ${n.toLocaleString('en-US')} clients ${mib(some.rss)} MiB, after the window passed ${mib(after.rss)} MiB (heap ${mib(after.heap)} MiB, ${limiter.size} clients left)`);
await limiter.close();
