/**
 * npm run build && node --import tsx bench/refusal-flood.ts [-- --duration 10]
 *
 * What a flood of refused requests costs the other clients. Starts the built server
 * (dist/) behind a trusted proxy (TRUST_PROXY=127.0.0.1, clients told apart by
 * X-Forwarded-For), then: one client ("the victim") sends a request every 20 ms and its
 * latency is recorded, first alone, then while another address floods the server with
 * requests that are all refused (429), over 10 connections, on a remembered URL and on a
 * URL never seen before. Prints the refusals per second and the victim's p50/p99.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({ options: { duration: { type: 'string', default: '10' }, port: { type: 'string', default: '3917' } } });
const DURATION = Number(args.duration);
const PORT = Number(args.port);
const API = `http://127.0.0.1:${PORT}/api/v1/directory`;

const server = spawn(process.execPath, [path.join(ROOT, 'dist/src/server.js')], {
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1', RATE_LIMIT_MAX: '1000', LOG_LEVEL: 'warn', REDIS_URL: '' },
  stdio: 'inherit',
});
process.on('exit', () => server.kill());

function get(url: string, client: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    request(url, { headers: { 'x-forwarded-for': client } }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
    }).on('error', reject).end();
  });
}

for (let i = 0; i < 100; i++) {
  if (await get(`http://127.0.0.1:${PORT}/readyz`, 'x').then(() => true, () => false)) break;
  await sleep(100);
}

/** The victim's latencies over `ms`, one request every 20 ms. */
async function victim(ms: number, client: string): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    times.push(await get(`${API}/categories`, client));
    await sleep(20);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

const fmt = (v: { p50: number; p99: number }) => `p50 ${v.p50.toFixed(2)} ms, p99 ${v.p99.toFixed(2)} ms`;
// The attacker spends its budget first.
for (let i = 0; i < 1000; i++) await get(`${API}/categories`, '198.51.100.66');
console.log(`victim alone: ${fmt(await victim(DURATION * 500, '203.0.113.1'))}`);

for (const [label, url] of [['remembered URL', `${API}/categories`], ['URLs never seen', `${API}/tools?q=[<id>]`]] as const) {
  const flood = autocannon({ url, connections: 10, duration: DURATION, idReplacement: true, headers: { 'x-forwarded-for': '198.51.100.66' } });
  const during = await victim(DURATION * 900, `203.0.113.${label.length}`);
  const result = await flood;
  console.log(`flood of 429s on a ${label}: ${Math.round(result.non2xx / DURATION).toLocaleString('en')} refusals/s; victim ${fmt(during)}`);
}
server.kill();
process.exit(0);
