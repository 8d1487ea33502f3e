/**
 * node --import tsx bench/limiter-memory-http.ts [clients]
 *
 * The limiter's memory in the real server: N distinct clients (each one request) arrive
 * through a trusted proxy (X-Forwarded-For from 127.0.0.1, driven by wrk), then the window
 * passes. Prints the server's resident memory at each step (/readyz no longer publishes how
 * many clients the limiter tracks).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const n = Number(process.argv[2] ?? 1_000_000);
const ROOT = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'limiter-memory-'));
const port = 4110;
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const readyz = async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).json();

const server = spawn(process.execPath, [path.join(ROOT, 'dist/src/server.js')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: path.join(work, 'db.sqlite'), TRUST_PROXY: '127.0.0.1', RATE_LIMIT_MAX_CLIENTS: String(n * 2), LOG_LEVEL: 'warn', REDIS_URL: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  for (let i = 0; i < 200; i++) {
    try {
      await readyz();
      break;
    } catch {
      await sleep(50);
    }
  }
  const before = rss(server.pid!);
  // Client i is 10.x.y.z from i; wrk's threads each take a disjoint range, one request per client.
  writeFileSync(path.join(work, 'clients.lua'), `
local counter = 0
local threads = 0
function setup(thread) thread:set("id", threads); threads = threads + 1 end
function init(args) counter = id * ${Math.ceil(n / 2)} end
request = function()
  local i = counter
  counter = counter + 1
  if i >= ${n} then i = ${n} - 1 end
  local a = 10 + math.floor(i / 16777216) % 200
  local xff = a .. "." .. (math.floor(i / 65536) % 256) .. "." .. (math.floor(i / 256) % 256) .. "." .. (i % 256)
  return wrk.format("GET", "/api/v1/directory/categories", { ["X-Forwarded-For"] = xff })
end`);
  const started = Date.now();
  // Long enough for n requests at this machine's rate; past n, the last client repeats.
  const seconds = Math.ceil(n / 20_000) + 5;
  const out = execFileSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '-s', path.join(work, 'clients.lua'), `http://127.0.0.1:${port}/api/v1/directory/categories`], { encoding: 'utf8' });
  const sent = Number(/(\d+) requests in/.exec(out)![1]);
  const during = rss(server.pid!);
  console.log(`${sent.toLocaleString('en-US')} requests from up to ${n.toLocaleString('en-US')} distinct clients in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`server resident memory: before ${before.toFixed(1)} MiB, after the clients ${during.toFixed(1)} MiB`);
  await sleep(62_000);
  console.log(`after the 60 s window: ${rss(server.pid!).toFixed(1)} MiB`);
} finally {
  server.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
