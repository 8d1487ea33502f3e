/**
 * npm run bench [-- --duration 5 --connections 50 --rounds 5 --warmup 1 --only TEXT --verbose --size N]
 *
 * Starts, side by side on this machine: our server (every production feature on: rate
 * limiting with a limit too high to trip, ETag, CORS, logging at `info`), a bare node:http
 * server replaying the very bytes our server sent, and json-server 0.17 on the same tools.
 * Drives each endpoint with wrk (or autocannon if wrk is missing), alternating
 * ours/bare/ours/bare (--rounds times, each round on a fresh pair of server processes, each
 * timed run after an untimed --warmup seconds of the same load), and
 * prints the medians of requests/s, server CPU time per request, p50/p99, and the ratios.
 * --only TEXT runs only the rows whose name contains TEXT; --verbose prints every run.
 *
 * --size N: the growth test. N tools (the bundled ones plus generated ones): start-up time
 * (import excluded), resident memory, and search throughput, with and without cache hits.
 * The never-seen row is timed after --warmup seconds of other never-seen queries, whose own
 * throughput is printed too (a fresh process's first seconds: its search not yet compiled).
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadContent } from '../src/content/load-content.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { generateDataset } from './generate.js';
import { luaList, NEVER_SEEN_EXTRA, NEVER_SEEN_NEEDS } from './never-seen-words.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    size: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    only: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args.warmup);
const PORTS = { ours: 4101, bare: 4102, json: 4103 } as const;
/**
 * The Node flags of `npm start` (package.json), given to our server and to the bare one
 * alike, so that both run as production runs (docs/performance.md, "Two kinds of Node
 * process").
 */
const NODE_FLAGS = (() => {
  const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  if (start[0] !== 'node' || start.at(-1) !== 'dist/src/server.js') throw new Error(`unexpected start script: ${start.join(' ')}`);
  return start.slice(1, -1);
})();
const work = mkdtempSync(path.join(tmpdir(), 'directory-bench-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

interface Result { rps: number; p50: number; p99: number; errors: number; /** Server CPU time per request, µs. */ cpuUs: number }

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 100 ticks/s). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function haveWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return (err as { status?: number }).status === 1; // wrk --version exits 1 after printing
  }
}
const WRK = haveWrk();

function ms(value: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(value)!;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/**
 * Drives `url` for DURATION seconds, after `warmupS` untimed seconds of the same load (the
 * first second of load after an idle spell runs with a worse tail). Besides throughput and
 * latency, the CPU time the server process (`pid`) spent per request: on a shared, noisy
 * machine it varies far less than requests/s, since it does not depend on how much CPU the
 * server was given.
 */
async function load(pid: number, url: string, headers: Record<string, string> = {}, script?: string, warmupS = 0, connections = CONNECTIONS, body?: string): Promise<Result> {
  if (warmupS > 0) await drive(url, headers, script, warmupS, connections, body);
  const cpuBefore = cpuMs(pid);
  const { requests, ...result } = await drive(url, headers, script, DURATION, connections, body);
  return { ...result, cpuUs: ((cpuMs(pid) - cpuBefore) * 1000) / requests };
}

async function drive(url: string, headers: Record<string, string>, script: string | undefined, seconds: number, connections = CONNECTIONS, body?: string): Promise<Omit<Result, 'cpuUs'> & { requests: number }> {
  if (WRK && body !== undefined && script === undefined) {
    // A POST (the /mcp rows): wrk takes its method and body from a script.
    script = path.join(work, `post-${Buffer.from(body).toString('base64url').slice(0, 40)}.lua`);
    writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\n`);
  }
  if (WRK) {
    const hs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
    const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...(script ? ['-s', script] : []), ...hs, url], { encoding: 'utf8' });
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
    const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]),
      p50: ms(/ 50%\s+(\S+)/.exec(out)![1]!),
      p99: ms(/ 99%\s+(\S+)/.exec(out)![1]!),
      errors: Number(non2xx?.[1] ?? 0) + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
      requests: Number(/(\d+) requests in/.exec(out)![1]),
    };
  }
  // A Lua script draws a different query per request; autocannon cannot run it, and would
  // silently measure the one URL instead.
  if (script !== undefined) throw new Error('the growth rows draw queries with a wrk Lua script: install wrk (apt-get install wrk)');
  const autocannon = (await import('autocannon')).default;
  const r = await autocannon({ url, connections, duration: seconds, headers, ...(body !== undefined ? { method: 'POST' as const, body } : {}) });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors, requests: r.requests.total };
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return Date.now() - started;
    } catch {}
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not come up`);
    await sleep(25);
  }
}

function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** The headers a replay server sends for a recorded response: all but those of the connection and the date. */
function headersOf(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
  });
  return headers;
}

async function startOurs(database: string, port: number = PORTS.ours): Promise<{ child: ChildProcess; startupMs: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, path.join(ROOT, 'dist/src/server.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database, RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_S: '1', PAGE_RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'info', REDIS_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  return { child, startupMs: Date.now() - started };
}

/**
 * One server process per round, for ours and for bare alike, so that whatever state a
 * process happens to settle in (docs/performance.md, "Two kinds of Node process") is
 * sampled on both sides rather than deciding a whole row.
 */
const roundPort = (kind: 'ours' | 'bare', round: number) => PORTS[kind] + 10 * round;

async function prepareDatabase(size?: number): Promise<{ file: string; tools: number }> {
  const loaded = await loadContent(path.join(ROOT, 'content'));
  if (!loaded.ok) throw new Error('bundled content is invalid: run npm run import -- --dry-run');
  const dataset = size ? generateDataset(loaded.dataset, size) : loaded.dataset;
  const file = path.join(work, `directory-${size ?? 'bundled'}.sqlite`);
  const store = SqliteStore.open(file);
  await store.migrate();
  await store.replaceDataset(dataset);
  await store.close();
  return { file, tools: dataset.tools.length };
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function sideBySide(): Promise<void> {
  const db = await prepareDatabase();
  const child = (await startOurs(db.file)).child;
  const base = `http://127.0.0.1:${PORTS.ours}`;
  const list = await (await fetch(`${base}/api/v1/directory/tools?per_page=1`)).json() as { data: Array<{ slug: string }> };
  const slug = list.data[0]!.slug;
  const endpoints = [
    { name: 'GET /tools', path: '/api/v1/directory/tools', json: '/tools?_page=1&_limit=30' },
    { name: 'GET /tools?q=quiz&pricing=freemium&has_education_pricing=1', path: '/api/v1/directory/tools?q=quiz&pricing=freemium&has_education_pricing=1', json: '/tools?q=quiz&pricing=freemium&has_education_pricing=true' },
    { name: 'GET /tools/{slug}', path: `/api/v1/directory/tools/${slug}`, json: `/tools/${slug}` },
    { name: 'GET /collections', path: '/api/v1/directory/collections', json: null },
    { name: 'GET /collections/{slug}', path: '', json: null },
    // The catalogue's pages (issue « A French web catalogue »): cached bytes like the API.
    { name: 'page /', path: '/', json: null },
    { name: 'page /outils?q=quiz&level=college', path: '/outils?q=quiz&level=college', json: null },
    { name: 'page /outils/{slug}', path: `/outils/${slug}`, json: null },
    { name: 'GET /tools?level=college&subject=francais&age=12', path: '/api/v1/directory/tools?level=college&subject=francais&age=12', json: null },
  ];
  const collections = await (await fetch(`${base}/api/v1/directory/collections`)).json() as { data: Array<{ slug: string }> };
  endpoints[4]!.path = `/api/v1/directory/collections/${collections.data[0]?.slug ?? 'none'}`;

  // Every process gets its first requests as soon as it is up, as behind a load balancer
  // (a Node process left idle for a while before its first request runs slower for good:
  // docs/performance.md, "Two kinds of Node process"): each endpoint, then its revalidation.
  // Identity encoding: the replay must send exactly the bytes a plain client gets.
  const warm = async (port: number) => {
    const answers: Record<string, { status: number; headers: Record<string, string>; body: string; notModified: Record<string, string> }> = {};
    for (const e of endpoints) {
      const url = `http://127.0.0.1:${port}${e.path}`;
      const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      const headers = headersOf(res);
      const body = Buffer.from(await res.arrayBuffer()).toString('base64');
      const revalidated = await fetch(url, { headers: { 'accept-encoding': 'identity', 'if-none-match': headers.etag! } });
      await revalidated.arrayBuffer();
      if (revalidated.status !== 304) throw new Error(`${url}: expected a 304 on revalidation, got ${revalidated.status}`);
      answers[e.path] = { status: res.status, headers, body, notModified: headersOf(revalidated) };
    }
    return answers;
  };
  // The first process's answers are what the replay servers send. Each of our processes
  // revalidates with its own ETags: links carry the port, so their bodies differ.
  const recorded = await warm(PORTS.ours);
  const replayFile = path.join(work, 'replay.json');
  writeFileSync(replayFile, JSON.stringify(recorded));
  const etagsOf = new Map<number, Record<string, string>>();
  const keepEtags = (port: number, answers: typeof recorded) =>
    etagsOf.set(port, Object.fromEntries(Object.entries(answers).map(([p, a]) => [p, a.headers.etag!])));
  keepEtags(PORTS.ours, recorded);
  const ours = [child];
  for (let i = 1; i < ROUNDS; i++) {
    ours.push((await startOurs(db.file, roundPort('ours', i))).child);
    keepEtags(roundPort('ours', i), await warm(roundPort('ours', i)));
  }
  const bare = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Compiled by the build, like our server: no TypeScript loader in the baseline process.
    const replay = fork(path.join(ROOT, 'dist/bench/replay-server.js'), [replayFile, String(roundPort('bare', i))], { execArgv: NODE_FLAGS, stdio: 'ignore' });
    children.push(replay);
    await once(replay, 'message');
    keepEtags(roundPort('bare', i), await warm(roundPort('bare', i)));
    bare.push(replay);
  }

  // json-server on the same tools (detail shape, id = slug).
  const store = SqliteStore.open(db.file);
  const snapshot = await store.readSnapshot();
  await store.close();
  const jsonDb = path.join(work, 'db.json');
  writeFileSync(jsonDb, JSON.stringify({
    tools: snapshot.dataset.tools.filter((t) => t.status === 'published').map((t) => ({ id: t.slug, ...t, pricing: t.pricing.model, has_education_pricing: t.education_program !== null })),
  }));
  const json = spawn(process.execPath, [path.join(ROOT, 'node_modules/json-server/lib/cli/bin.js'), '--quiet', '--port', String(PORTS.json), jsonDb], { stdio: 'ignore' });
  children.push(json);
  await waitFor(`http://127.0.0.1:${PORTS.json}/tools/${slug}`);

  console.log(`\n${db.tools} tools · ${CONNECTIONS} connections · ${DURATION} s per run · load generator: ${WRK ? 'wrk' : 'autocannon'} · node ${process.version}\n`);
  const rows: string[][] = [['endpoint', 'ours req/s', 'bare req/s', 'ours/bare', 'ours µs CPU/req', 'bare µs CPU/req', 'bare/ours CPU', 'ours p50/p99 ms', 'bare p50/p99 ms', 'p99 ratio', 'json-server req/s', 'ours/json-server']];
  const runs = [
    ...endpoints.map((e) => ({ ...e, revalidate: false })),
    { ...endpoints[0]!, name: 'GET /tools revalidated (304)', json: null, revalidate: true },
    { ...endpoints[2]!, name: 'GET /tools/{slug} revalidated (304)', json: null, revalidate: true },
  ];
  const headersFor = (port: number, e: { path: string; revalidate: boolean }): Record<string, string> =>
    e.revalidate ? { 'If-None-Match': etagsOf.get(port)![e.path]! } : {};
  for (const e of runs.filter((r) => args.only === undefined || r.name.includes(args.only))) {
    const oursRuns: Result[] = [];
    const bareRuns: Result[] = [];
    // Alternated, so a slow spell of the machine falls on both; each figure is the median.
    for (let i = 0; i < ROUNDS; i++) {
      const oursUrl = `http://127.0.0.1:${roundPort('ours', i)}${e.path}`;
      oursRuns.push(await load(ours[i]!.pid!, oursUrl, headersFor(roundPort('ours', i), e), undefined, WARMUP));
      bareRuns.push(await load(bare[i]!.pid!, `http://127.0.0.1:${roundPort('bare', i)}${e.path}`, headersFor(roundPort('bare', i), e), undefined, WARMUP));
      if (args.verbose) {
        for (const [side, r] of [['ours', oursRuns[i]!], ['bare', bareRuns[i]!]] as const) {
          console.log(`${e.name} · round ${i + 1} · ${side}: ${fmt(r.rps)} req/s, ${fmt(r.cpuUs, 1)} µs CPU/req, p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms`);
        }
      }
    }
    // The same untimed warm-up as ours and bare get.
    const jsonResult = e.json ? await load(json.pid!, `http://127.0.0.1:${PORTS.json}${e.json}`, {}, undefined, WARMUP) : null;
    const o = medians(oursRuns);
    const b = medians(bareRuns);
    const errors = oursRuns.reduce((a, r) => a + r.errors, 0);
    if (errors > 0) console.warn(`warning: ${e.name}: ${errors} non-2xx/3xx or socket errors on our server`);
    rows.push([
      e.name, fmt(o.rps), fmt(b.rps), fmt(o.rps / b.rps, 2), fmt(o.cpuUs, 1), fmt(b.cpuUs, 1), fmt(b.cpuUs / o.cpuUs, 2),
      `${fmt(o.p50, 2)} / ${fmt(o.p99, 2)}`, `${fmt(b.p50, 2)} / ${fmt(b.p99, 2)}`, fmt(o.p99 / b.p99, 2),
      jsonResult ? fmt(jsonResult.rps) : '—', jsonResult ? `${fmt(o.rps / jsonResult.rps, 1)}×` : '—',
    ]);
  }
  printTable(rows);
  await mcpBesideRest(ours, slug);
  console.log(`\nour server's resident memory after the run: ${fmt(rss(child.pid!) / 2 ** 20, 1)} MiB`);
}

/**
 * /mcp beside its REST twins, on the same processes: a `tools/call` is a POST that goes
 * through Fastify and the SDK (a server instance per request, by the SDK's design), never
 * through the response cache or the fast path, so its cost is the protocol's.
 */
async function mcpBesideRest(ours: ChildProcess[], slug: string): Promise<void> {
  const modern = (name: string, args: Record<string, unknown>) => ({
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });
  const legacy = (name: string, args: Record<string, unknown>) => ({
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const rows: Array<{ name: string; path: string; headers?: Record<string, string>; body?: string }> = [
    { name: 'GET /tools?q=quiz&per_page=10', path: '/api/v1/directory/tools?q=quiz&per_page=10' },
    { name: 'POST /mcp search_tools {q: quiz} (2026-07-28)', path: '/mcp', ...modern('search_tools', { q: 'quiz' }) },
    { name: 'GET /tools/{slug}', path: `/api/v1/directory/tools/${slug}` },
    { name: 'POST /mcp get_tool {slug} (2026-07-28)', path: '/mcp', ...modern('get_tool', { slug }) },
    { name: 'POST /mcp get_tool {slug} (2025, SSE)', path: '/mcp', ...legacy('get_tool', { slug }) },
  ].filter((r) => args.only === undefined || r.name.includes(args.only));
  if (rows.length === 0) return;
  // Each call must succeed before it is timed: a refused or failing call would be cheap.
  for (const r of rows) {
    // fetch's keep-alive socket from the warm-up has sat idle for minutes; a POST is not
    // retried by fetch when that socket turns out closed, so try once more on a socket error.
    const call = () => fetch(`http://127.0.0.1:${PORTS.ours}${r.path}`, { method: r.body ? 'POST' : 'GET', headers: r.headers, body: r.body });
    const res = await call().catch(call);
    const text = await res.text();
    if (res.status !== 200 || text.includes('"isError":true')) throw new Error(`${r.name}: ${res.status} ${text.slice(0, 200)}`);
  }
  const table: string[][] = [['MCP beside REST', 'req/s', 'µs CPU/req', 'p50/p99 ms']];
  for (const r of rows) {
    const runs: Result[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      runs.push(await load(ours[i]!.pid!, `http://127.0.0.1:${roundPort('ours', i)}${r.path}`, r.headers ?? {}, undefined, WARMUP, CONNECTIONS, r.body));
    }
    const m = medians(runs);
    const errors = runs.reduce((a, x) => a + x.errors, 0);
    if (errors > 0) console.warn(`warning: ${r.name}: ${errors} non-2xx/3xx or socket errors`);
    table.push([r.name, fmt(m.rps), fmt(m.cpuUs, 1), `${fmt(m.p50, 2)} / ${fmt(m.p99, 2)}`]);
  }
  console.log('');
  printTable(table);
}

/** Requests/s of a bare replay server answering every URL of `script` with the response to `url`. */
async function bareCeiling(url: string, script: string): Promise<number> {
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  const headers = headersOf(res);
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200 || (JSON.parse(body.toString('utf8')) as { data: unknown[] }).data.length === 0) throw new Error(`${url}: expected a page of tools, got ${res.status}`);
  const file = path.join(work, 'replay-ceiling.json');
  writeFileSync(file, JSON.stringify({ '*': { status: res.status, headers, body: body.toString('base64'), notModified: null } }));
  const replay = fork(path.join(ROOT, 'dist/bench/replay-server.js'), [file, String(PORTS.bare)], { execArgv: NODE_FLAGS, stdio: 'ignore' });
  children.push(replay);
  await once(replay, 'message');
  const bare = await load(replay.pid!, `http://127.0.0.1:${PORTS.bare}/api/v1/directory/tools`, {}, script, WARMUP);
  replay.kill('SIGTERM');
  await once(replay, 'exit');
  return bare.rps;
}

async function growth(size: number): Promise<void> {
  const results: string[][] = [['tools', 'start-up ms', 'RSS MiB', 'q=quiz req/s (cached)', 'q=quiz&filters req/s (cached)', 'varied q req/s (uncached)', 'varied q+filters req/s (uncached)', 'never-seen typos+synonyms req/s', 'never-seen, first seconds (cold) req/s', 'never-seen alone: p50 / p99 ms', 'bare, a 50-tool never-seen page for every query req/s', 'never-seen / bare', 'never-seen /outils pages req/s', '/outils / API never-seen']];
  const script = path.join(work, 'varied.lua');
  // Each request a different (q, page) pair: the response cache cannot help, the search runs.
  const lua = (filters: string) => `
local words = {"quiz","eleve","video","langue","classe","carte","calcul","lecture","robot","musique","histoire","correction","ecriture","oeuvre","source","donnees"}
math.randomseed(7)
request = function()
  local q = words[math.random(#words)]
  return wrk.format("GET", "/api/v1/directory/tools?q=" .. q .. "${filters}&page=" .. math.random(1, 1000000))
end`;
  // Never-seen searches: each request a query no request made before (the search's own
  // per-query memo cannot help either): a need, a name or a synonym with a typing error at a
  // random place (swap, drop, double or change a letter), plus one or two ordinary words.
  // Drawn from a seed: the untimed warm-up draws other queries than the timed run.
  const neverSeen = (seed: number, prefix = '/api/v1/directory/tools?q=', paging = '&per_page=" .. math.random(1, 50) .. "') => `
local queries = ${luaList(NEVER_SEEN_NEEDS)}
local extra = ${luaList(NEVER_SEEN_EXTRA)}
local letters = "abcdefghijklmnopqrstuvwxyz"
math.randomseed(${seed})
local function typo(q)
  local i = math.random(2, #q - 1)
  local op = math.random(4)
  if op == 1 then return q:sub(1, i - 1) .. q:sub(i + 1, i + 1) .. q:sub(i, i) .. q:sub(i + 2) end
  if op == 2 then return q:sub(1, i - 1) .. q:sub(i + 1) end
  if op == 3 then return q:sub(1, i) .. q:sub(i) end
  local r = math.random(#letters)
  return q:sub(1, i - 1) .. letters:sub(r, r) .. q:sub(i + 1)
end
request = function()
  local q = typo(queries[math.random(#queries)]) .. " " .. extra[math.random(#extra)]
  if math.random(2) == 1 then q = q .. " " .. extra[math.random(#extra)] end
  q = q:gsub(" ", "%%20"):gsub("'", "%%27")
  return wrk.format("GET", "${prefix}" .. q .. "${paging}")
end`;
  for (const n of [undefined, size]) {
    const db = await prepareDatabase(n);
    const { child, startupMs } = await startOurs(db.file);
    const base = `http://127.0.0.1:${PORTS.ours}/api/v1/directory/tools`;
    await fetch(`${base}?q=quiz`);
    const cached = await load(child.pid!, `${base}?q=quiz`);
    const cachedFiltered = await load(child.pid!, `${base}?q=quiz&pricing=freemium&has_education_pricing=1`);
    writeFileSync(script, lua(''));
    const varied = await load(child.pid!, `${base}`, {}, script);
    writeFileSync(script, lua('&pricing=freemium,paid&has_education_pricing=1'));
    const variedFiltered = await load(child.pid!, `${base}`, {}, script);
    // As every side-by-side row, after an untimed --warmup of the same kind of load: a server
    // that has run a while has compiled its search for typing errors, which the first second
    // of a fresh process has not (docs/performance.md). Other queries: none is seen below.
    writeFileSync(script, neverSeen(5));
    const cold = WARMUP > 0 ? await drive(base, {}, script, WARMUP) : null;
    writeFileSync(script, neverSeen(11));
    const unseen = await load(child.pid!, `${base}`, {}, script);
    // The time one search takes, one request at a time (at 50 connections a request mostly waits).
    // Its own queries again: those of the run above are cached now.
    writeFileSync(script, neverSeen(17));
    const unseenAlone = await load(child.pid!, `${base}`, {}, script, 0, 1);
    // The machine's ceiling for that row: a bare node:http server sending one page of a
    // never-seen search (a full page, status and headers as ours sent them) for every query
    // of the same script. How fast a given server runs varies by 2-3x between machines; this
    // ratio says what share of the machine's ceiling our never-seen searches reach.
    const ceiling = await bareCeiling(`${base}?q=quizz%20eleves&per_page=50`, script);
    // The catalogue's never-seen searches (/outils?q=…, its first page of 24 cards), after
    // the same kind of warm-up, with queries of their own seeds: the page reads the sentence,
    // applies it, counts its facets and renders (issue 45: at least half the API's rate).
    writeFileSync(script, neverSeen(23, '/outils?q=', ''));
    if (WARMUP > 0) await drive(`http://127.0.0.1:${PORTS.ours}/outils`, {}, script, WARMUP);
    writeFileSync(script, neverSeen(29, '/outils?q=', ''));
    const pages = await load(child.pid!, `http://127.0.0.1:${PORTS.ours}/outils`, {}, script);
    results.push([
      fmt(db.tools), fmt(startupMs), fmt(rss(child.pid!) / 2 ** 20, 1), fmt(cached.rps), fmt(cachedFiltered.rps), fmt(varied.rps), fmt(variedFiltered.rps),
      fmt(unseen.rps), cold === null ? '–' : fmt(cold.rps), `${fmt(unseenAlone.p50, 2)} / ${fmt(unseenAlone.p99, 2)}`,
      fmt(ceiling), fmt(unseen.rps / ceiling, 3), fmt(pages.rps), fmt(pages.rps / unseen.rps, 2),
    ]);
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  console.log(`\nGrowth · ${CONNECTIONS} connections · ${DURATION} s per run\n`);
  printTable(results);
  const [, small, big] = results;
  const ratio = (col: number) => Number(big![col]!.replace(/,/g, '')) / Number(small![col]!.replace(/,/g, ''));
  console.log(`\nthroughput at ${big![0]} tools vs ${small![0]}: cached q ${fmt(ratio(3), 2)}, cached q+filters ${fmt(ratio(4), 2)}, uncached q ${fmt(ratio(5), 2)}, uncached q+filters ${fmt(ratio(6), 2)}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function medians(results: Result[]): Result {
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    errors: median(results.map((r) => r.errors)),
    cpuUs: median(results.map((r) => r.cpuUs)),
  };
}

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [n, r] of rows.entries()) {
    console.log(`| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`);
    if (n === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  }
}

if (args.size) await growth(Number(args.size));
else await sideBySide();
process.exit(0);
