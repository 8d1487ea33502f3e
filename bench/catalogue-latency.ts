/**
 * The worst latencies of never-seen searches, catalogue page against API, in one run: the
 * same random two-word searches (words of the bundled tools' names and descriptions) sent to
 * `/outils?q=…` and to `/api/v1/directory/tools?q=…`, 50 connections, alternated, against a
 * server already started with its limits off:
 *
 *   RATE_LIMIT_MAX=0 PAGE_RATE_LIMIT_MAX=0 PORT=3100 node dist/src/server.js &
 *   node --import tsx bench/catalogue-latency.ts [--url http://127.0.0.1:3100] [--seconds 10] [--rounds 2]
 *
 * Prints req/s, p50, p99 and the slowest request of each. Loopback only.
 */
import autocannon from 'autocannon';
import path from 'node:path';
import { loadContent } from '../src/content/load-content.js';
import { foldFrench } from '../src/text/french-text.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const url = arg('url', 'http://127.0.0.1:3100');
if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(url)) throw new Error('loopback only');
const seconds = Number(arg('seconds', '10'));
const rounds = Number(arg('rounds', '2'));

const loaded = await loadContent(path.resolve(import.meta.dirname, '../content'));
if (!loaded.ok) throw new Error('content does not load');
const words = [...new Set(loaded.dataset.tools.flatMap((t) => foldFrench(`${t.name} ${t.short_description}`).split(' ')).filter((w) => w.length >= 4))];
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const search = () => `${words[Math.floor(random() * words.length)]} ${words[Math.floor(random() * words.length)]}`;

async function run(name: string, pathOf: (q: string) => string) {
  const result = await autocannon({
    url,
    connections: 50,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: pathOf(encodeURIComponent(search())) }) }],
  });
  const non2xx = result.non2xx;
  console.log(`${name.padEnd(12)} ${Math.round(result.requests.average).toString().padStart(6)} req/s · p50 ${result.latency.p50} ms · p99 ${result.latency.p99} ms · slowest ${result.latency.max} ms${non2xx ? ` · ${non2xx} non-2xx` : ''}`);
}

for (let r = 0; r < rounds; r++) {
  await run('API', (q) => `/api/v1/directory/tools?q=${q}`);
  await run('catalogue', (q) => `/outils?q=${q}`);
}
