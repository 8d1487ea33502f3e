/**
 * Real PostgreSQL and Redis for the tests that need them. Their URLs come from the
 * environment (`TEST_POSTGRES_URL`, `TEST_REDIS_URL`, set by .ci/run); without them those
 * tests are skipped, and say so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL?.trim() || null;
export const REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;
export const skipWithoutPostgres = POSTGRES_URL ? false : 'TEST_POSTGRES_URL is not set: PostgreSQL tests skipped';
export const skipWithoutRedis = REDIS_URL ? false : 'TEST_REDIS_URL is not set: Redis tests skipped';

/** A fresh schema on the test database; the URL puts it first on the search path. */
export async function postgresSchema(baseUrl = POSTGRES_URL): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  if (!baseUrl) throw new Error('TEST_POSTGRES_URL is not set');
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = withSearchPath(baseUrl, schema);
  return {
    url,
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** Polls `condition` every 50 ms until it holds or `ms` have passed; its last value. */
export async function until(condition: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(50);
  }
  return condition();
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  srv.close();
  await once(srv, 'close');
  return port;
}

/** A redis-server of the test's own, on a free port, so it can be stopped and restarted. */
export class OwnRedis {
  private child: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const r = new OwnRedis(await freePort());
    await r.up();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 50; i++) {
      if (await canConnect(this.port)) return;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  }

  async down(): Promise<void> {
    if (!this.child) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
    this.child = null;
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

function discard(): void {}

/**
 * A TCP relay to a real service that a test can cut and restore, to play an outage; or
 * freeze and thaw, to play a peer that stops answering without resetting anything (a
 * failover, a dead host behind a NAT): connections stay open, new ones are accepted, and
 * nothing flows either way until `thaw()`, which delivers what was held back.
 */
export class CuttableRelay {
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  private pairs = new Set<{ client: Socket; upstream: Socket; piped: boolean }>();
  private frozen = false;
  private dropping = false;
  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<CuttableRelay> {
    const relay = new CuttableRelay(await freePort(), target);
    await relay.up();
    return relay;
  }

  /** Connections accepted so far that are still open. */
  get openConnections(): number {
    return this.pairs.size;
  }

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      const pair = { client, upstream, piped: false };
      this.pairs.add(pair);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => {
          this.sockets.delete(s);
          this.pairs.delete(pair);
        });
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      if (!this.frozen) this.pipe(pair);
      else if (this.dropping) {
        client.on('data', discard).resume();
        upstream.on('data', discard).resume();
      } else {
        client.pause();
        upstream.pause();
      }
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  private pipe(pair: { client: Socket; upstream: Socket; piped: boolean }): void {
    pair.piped = true;
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  }

  /**
   * Stops forwarding in both directions, closing nothing. With `existingOnly`, connections
   * made from now on flow as usual (a failover: the old connections are dead, new ones
   * reach the new server). With `drop`, what is sent meanwhile is read and thrown away
   * instead of held back: lost requests and replies.
   */
  freeze(options: { existingOnly?: boolean; drop?: boolean } = {}): void {
    this.frozen = !options.existingOnly;
    this.dropping = options.drop === true;
    for (const pair of this.pairs) {
      if (!pair.piped) continue;
      pair.piped = false;
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
      if (this.dropping) {
        pair.client.on('data', discard).resume();
        pair.upstream.on('data', discard).resume();
      } else {
        pair.client.pause();
        pair.upstream.pause();
      }
    }
  }

  /** Forwards again, held-back bytes first. */
  thaw(): void {
    this.frozen = false;
    for (const pair of this.pairs) {
      if (pair.piped) continue;
      pair.client.off('data', discard);
      pair.upstream.off('data', discard);
      this.pipe(pair);
    }
  }

  async down(): Promise<void> {
    this.frozen = false;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.pairs.clear();
    if (this.server) {
      const closed = once(this.server, 'close');
      this.server.close();
      await closed;
      this.server = null;
    }
  }
}
