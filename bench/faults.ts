/**
 * node --import tsx bench/faults.ts [--server PATH] [--connections 10] [--duration 5]
 *
 * The figures of docs/security.md for Redis and PostgreSQL that stop answering (issue 17,
 * items 5 and 7), measured on the real server process (PATH: a src/server.ts, by default
 * this checkout's, so an older checkout's can be measured the same way). Needs
 * TEST_REDIS_URL and TEST_POSTGRES_URL; both are reached through relays that freeze.
 *
 * Redis: requests/s at fixed concurrency before, during and after a freeze, and what
 * /readyz says after the thaw. PostgreSQL: how long until /readyz says unreachable, how long
 * after the thaw an import committed during the freeze is served, and how a SIGTERM during
 * a freeze ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { importContent } from '../src/content/import-content.js';
import { PostgresStore } from '../src/store/postgres-store.js';
import { fixtureDataset, tempDir, writeContent } from '../test/helpers/fixture.js';
import { CuttableRelay, freePort, postgresSchema, until } from '../test/helpers/services.js';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: path.resolve(import.meta.dirname, '../src/server.ts') },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '5' },
  },
});
const REDIS = process.env.TEST_REDIS_URL;
const POSTGRES = process.env.TEST_POSTGRES_URL;
if (!REDIS || !POSTGRES) throw new Error('set TEST_REDIS_URL and TEST_POSTGRES_URL');

async function start(env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', args.server], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: 'ignore',
  });
  if (!(await until(() => readyz(port).then(() => true, () => false), 30_000))) throw new Error('the server did not start');
  return { port, child };
}

async function readyz(port: number): Promise<{ rate_limiter: string; revision: number; store: { reachable: boolean } }> {
  const body = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { rate_limiter: { reachable: boolean }; revision: number; store: { reachable: boolean } };
  // The limiter here is Redis's: reachable means Redis is used.
  return { ...body, rate_limiter: body.rate_limiter.reachable ? 'redis' : 'memory (redis unavailable)' };
}

async function rate(port: number): Promise<string> {
  const r = await autocannon({ url: `http://127.0.0.1:${port}/api/v1/directory/categories`, connections: Number(args.connections), duration: Number(args.duration) });
  return `${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.non2xx} non-2xx, ${r.errors} errors`;
}

function relayTo(url: string): Promise<CuttableRelay> {
  const u = new URL(url);
  return CuttableRelay.start({ host: u.hostname, port: Number(u.port) });
}

function through(url: string, relay: CuttableRelay): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(relay.port);
  return u.toString();
}

async function redisFreeze(): Promise<void> {
  const relay = await relayTo(REDIS!);
  const { port, child } = await start({ REDIS_URL: through(REDIS!, relay), RATE_LIMIT_MAX: '1000000', DATABASE_URL: path.join(await tempDir(), 'd.sqlite') });
  console.log(`Redis, ${args.connections} connections, ${args.duration} s each`);
  console.log(`  answering: ${await rate(port)}`);
  relay.freeze();
  console.log(`  frozen:    ${await rate(port)}`);
  console.log(`  /readyz while frozen: ${(await readyz(port)).rate_limiter}`);
  relay.thaw();
  const thawed = Date.now();
  const back = await until(async () => (await readyz(port)).rate_limiter === 'redis', 15_000);
  console.log(`  /readyz after the thaw: ${(await readyz(port)).rate_limiter}${back ? ` (after ${Date.now() - thawed} ms)` : ' (15 s later)'}`);
  console.log(`  thawed:    ${await rate(port)}`);
  child.kill('SIGKILL');
  await relay.down();
}

async function postgresFreeze(): Promise<void> {
  const pg = await postgresSchema(POSTGRES);
  const direct = await PostgresStore.connect(pg.url);
  await direct.migrate();
  const dataset = fixtureDataset();
  const content = await writeContent(path.join(await tempDir(), 'c'), dataset);
  await importContent(direct, content);
  const relay = await relayTo(POSTGRES!);
  const { port, child } = await start({ DATABASE_URL: through(pg.url, relay), RATE_LIMIT_MAX: '0' });
  const exited = once(child, 'exit');
  console.log('PostgreSQL (defaults: DATABASE_TIMEOUT_MS=5000, REVISION_CHECK_MS=1000)');
  relay.freeze();
  const frozen = Date.now();
  const seen = await until(async () => !(await readyz(port)).store.reachable, 20_000);
  console.log(`  /readyz says unreachable: ${seen ? `after ${Date.now() - frozen} ms` : 'not within 20 s'}`);
  dataset.tools[0]!.name = 'Importé pendant la panne';
  await writeContent(content, dataset);
  await importContent(direct, content);
  relay.thaw();
  const thawed = Date.now();
  const loaded = await until(async () => (await readyz(port)).revision === 2, 20_000);
  console.log(`  import committed during the freeze served: ${loaded ? `${Date.now() - thawed} ms after the thaw` : 'not within 20 s of the thaw'}`);
  relay.freeze();
  await sleep(3000);
  const stopping = Date.now();
  child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  console.log(`  SIGTERM 3 s into a freeze: exit ${code} after ${Date.now() - stopping} ms`);
  await relay.down();
  await direct.close();
  await pg.drop();
}

await redisFreeze();
await postgresFreeze();
