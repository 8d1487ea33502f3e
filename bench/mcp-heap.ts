/**
 * node --expose-gc --import tsx bench/mcp-heap.ts [calls]
 *
 * Heap of the server over many MCP calls (default 100,000), in process through `inject`:
 * search_tools and get_tool, alternating the 2026-07-28 era and the 2025 era (SSE), rate
 * limit off. The heap after a full GC is read after a warm-up of 5,000 calls, then every
 * tenth of the run; /mcp keeps no per-client or per-session state, so it must stay flat.
 * Exits non-zero when the heap ends more than 5 MiB above the warm-up reading.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { buildTestApp } from '../test/helpers/build-app.js';

const total = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const heapMiB = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'mcp-heap', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const call = (era: 'modern' | 'legacy', name: string, args: Record<string, unknown>, id: number) =>
  era === 'modern'
    ? {
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
        payload: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
      }
    : {
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
      };

const cleanups: Array<() => Promise<void> | void> = [];
const context = { after: (fn: () => Promise<void> | void) => cleanups.push(fn) } as unknown as TestContext;
const { app } = await buildTestApp(context, { env: { RATE_LIMIT_MAX: '0' } });
const words = ['quiz', 'podcast', 'vidéo', 'quizz', 'traduction'];
let warm = 0;
const readings: string[] = [];
for (let i = 0; i < total; i++) {
  const q = words[i % words.length]!;
  const req = [
    call('legacy', 'search_tools', { q }, i),
    call('modern', 'search_tools', { q, page: 1 + (i % 3) }, i),
    call('modern', 'get_tool', { slug: 'quizzy' }, i),
    call('legacy', 'get_tool', { slug: 'quizzy' }, i),
  ][i % 4]!;
  const res = await app.inject({ method: 'POST', url: '/mcp', headers: req.headers, payload: req.payload });
  assert.equal(res.statusCode, 200, res.body.slice(0, 200));
  assert.ok(!res.body.includes('"isError":true'), res.body.slice(0, 200));
  if (i === Math.min(5_000, total - 1)) warm = heapMiB();
  if (i > 0 && i % Math.max(1, Math.floor(total / 10)) === 0) readings.push(`${i.toLocaleString('en')}: ${heapMiB().toFixed(1)}`);
}
const end = heapMiB();
console.log(`heap MiB after calls — ${readings.join(' · ')}`);
console.log(`after the 5,000-call warm-up: ${warm.toFixed(1)} MiB; after ${total.toLocaleString('en')} calls: ${end.toFixed(1)} MiB; resident: ${(process.memoryUsage().rss / 2 ** 20).toFixed(1)} MiB`);
for (const fn of cleanups.reverse()) await fn();
if (end > warm + 5) {
  console.error(`the heap grew by ${(end - warm).toFixed(1)} MiB`);
  process.exitCode = 1;
}
