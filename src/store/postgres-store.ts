/**
 * PostgreSQL as the source of truth (DATABASE_URL=postgres://…), for several instances.
 * Imports are DELETE + INSERT in one transaction (never TRUNCATE: its ACCESS EXCLUSIVE lock
 * blocks readers, see PITFALLS.md), then `NOTIFY directory_changed` so every instance
 * reloads; snapshots are read in one REPEATABLE READ transaction so they never mix imports.
 *
 * A connection can die silently (a failover, a host gone behind a NAT: no reset, no answer).
 * Every query therefore has a deadline, on the client (`query_timeout`: the query fails and
 * its connection is thrown away) and on the server (`statement_timeout`); connections use
 * TCP keepalive; the LISTEN connection is checked with a query now and then and made again
 * when it does not answer; and closing gives up waiting on a peer that never says goodbye.
 */
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import pg from 'pg';
import type { Dataset, Snapshot } from '../domain.js';
import { CHANGE_COLUMNS, SELECT_CHANGES, SELECT_HISTORY_SLUGS, SELECT_LATEST_CHANGE, changeHistory, changeInstant, changesToRows, rowsToChanges, toolChanges } from './change-log.js';
import type { DirectoryStore } from './directory-store.js';
import { diffDatasets, type ImportReport } from './import-report.js';
import { runInSlices } from '../slices.js';
import { migrations } from './schema-migrations.js';
import {
  CATEGORY_COLUMNS, COLLECTION_COLUMNS, ITEM_COLUMNS, DOCUMENT_COLUMNS, JSON_COLUMNS, REDIRECT_COLUMNS, SYNONYM_COLUMNS, TOOL_COLUMNS,
  datasetSteps, datasetToRows, rowsToDataset, type DatasetRows, type Row,
} from './rows.js';

export const CHANGE_CHANNEL = 'directory_changed';
/** Serialises migrations across instances starting at once. */
const MIGRATION_LOCK = 73_021_457;

const MIGRATIONS = migrations('postgres');
const PG_VERSION = (createRequire(import.meta.url)('pg/package.json') as { version: string }).version;

export interface PostgresStoreOptions {
  /**
   * Longest a query may take, in ms: enforced by the client (the connection is then dropped)
   * and by the server (`statement_timeout`); also bounds opening a connection (at most 10 s).
   * Default 10 minutes, for the import CLI (an import may wait for another one's lock); the
   * server passes DATABASE_TIMEOUT_MS.
   */
  queryTimeoutMs?: number;
  /** How often the LISTEN connection is checked with a query, in ms (default 10 s). */
  listenCheckMs?: number;
}

/** How long closing waits for connections to say goodbye before cutting them. */
const CLOSE_WAIT_MS = 500;

export class PostgresStore implements DirectoryStore {
  readonly engine = 'postgres' as const;
  /** Learnt at migration, the first query a process makes. */
  private serverVersion: string | null = null;

  private readonly pool: pg.Pool;
  /** Every socket this store opened and has not seen closed, to cut at close. */
  private readonly sockets = new Set<Socket>();
  private readonly timeoutMs: number;

  private constructor(
    private readonly url: string,
    private readonly options: PostgresStoreOptions,
  ) {
    this.timeoutMs = options.queryTimeoutMs ?? 600_000;
    this.pool = new pg.Pool({ ...this.clientConfig(), max: 4, idleTimeoutMillis: 10_000 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
  }

  static async connect(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    return new PostgresStore(url, options);
  }

  /** Connection settings shared by the pool and the LISTEN connection. */
  private clientConfig(timeouts = true): pg.ClientConfig {
    return {
      connectionString: this.url,
      connectionTimeoutMillis: Math.min(this.timeoutMs, 10_000),
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...(timeouts ? { query_timeout: this.timeoutMs, statement_timeout: this.timeoutMs } : {}),
      stream: () => {
        const socket = new Socket();
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        return socket;
      },
    };
  }

  get driver(): string {
    return `pg ${PG_VERSION}${this.serverVersion ? ` (PostgreSQL ${this.serverVersion})` : ''}`;
  }

  async migrate(): Promise<void> {
    // A connection of its own, without query deadlines: the lock may wait for another
    // instance's migration.
    const client = new pg.Client(this.clientConfig(false));
    client.on('error', () => {});
    await client.connect();
    try {
      this.serverVersion = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version.split(' ')[0]!;
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)');
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.version));
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, now())', [migration.version]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      await endWithin(client, CLOSE_WAIT_MS);
    }
  }

  async revision(): Promise<number> {
    const { rows } = await this.pool.query<{ revision: string }>('SELECT revision FROM directory_meta WHERE id = 1');
    return Number(rows[0]!.revision);
  }

  async readSnapshot(): Promise<Snapshot> {
    const client = await this.pool.connect();
    let revision: number, datasetRows: DatasetRows, changeRows: Row[];
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ revision: string }>('SELECT revision FROM directory_meta WHERE id = 1');
      revision = Number(rows[0]!.revision);
      datasetRows = await readRows(client);
      changeRows = (await client.query<Row>(SELECT_CHANGES)).rows;
      await client.query('COMMIT');
    } catch (err) {
      discard(client, err);
      throw err;
    }
    client.release();
    // Rows to records in slices (src/slices.ts): a server keeps answering meanwhile.
    return { revision, dataset: await runInSlices(datasetSteps(datasetRows)), changes: rowsToChanges(changeRows) };
  }

  async replaceDataset(dataset: Dataset): Promise<ImportReport> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Row lock on the revision: two imports at once run one after the other.
      const { rows } = await client.query<{ revision: string }>('SELECT revision FROM directory_meta WHERE id = 1 FOR UPDATE');
      const current = Number(rows[0]!.revision);
      const before = await readDataset(client);
      const diff = diffDatasets(before, dataset);
      if (!diff.changed) {
        await client.query('COMMIT');
        client.release();
        return { ...diff, revision: current };
      }
      for (const table of ['content_documents', 'search_synonyms', 'collection_items', 'collections', 'tool_redirects', 'tools', 'categories']) {
        await client.query(`DELETE FROM ${table}`);
      }
      const rowsToLoad = datasetToRows(dataset);
      await insertAll(client, 'categories', CATEGORY_COLUMNS, rowsToLoad.categories);
      await insertAll(client, 'tools', TOOL_COLUMNS, rowsToLoad.tools);
      await insertAll(client, 'tool_redirects', REDIRECT_COLUMNS, rowsToLoad.redirects);
      await insertAll(client, 'collections', COLLECTION_COLUMNS, rowsToLoad.collections);
      await insertAll(client, 'collection_items', ITEM_COLUMNS, rowsToLoad.items);
      await insertAll(client, 'search_synonyms', SYNONYM_COLUMNS, rowsToLoad.synonyms);
      await insertAll(client, 'content_documents', DOCUMENT_COLUMNS, rowsToLoad.documents);
      const revision = current + 1;
      // Read after the revision row lock, so imports record their instants in commit order.
      const history = changeHistory(
        (await client.query<Row>(SELECT_HISTORY_SLUGS)).rows,
        (await client.query<{ latest: unknown }>(SELECT_LATEST_CHANGE)).rows[0]!.latest,
      );
      const changes = toolChanges(before, dataset, history, revision, changeInstant(new Date(), history.latest));
      await insertAll(client, 'tool_changes', CHANGE_COLUMNS, changesToRows(changes));
      await client.query('UPDATE directory_meta SET revision = $1, imported_at = now() WHERE id = 1', [revision]);
      // Delivered on commit only, so listeners never see a revision that rolled back.
      await client.query(`SELECT pg_notify('${CHANGE_CHANNEL}', $1)`, [String(revision)]);
      await client.query('COMMIT');
      client.release();
      return { ...diff, revision };
    } catch (err) {
      discard(client, err);
      throw err;
    }
  }

  /**
   * LISTEN on a dedicated connection; reconnects after a loss (the poll covers the gap). The
   * connection is checked with a query every `listenCheckMs`: one that does not answer
   * within the query timeout is cut and made again, since a silently dead connection would
   * otherwise never deliver a notification nor report an error.
   */
  async watch(listener: () => void): Promise<() => Promise<void>> {
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    let check: NodeJS.Timeout | undefined;
    const checkEveryMs = this.options.listenCheckMs ?? 10_000;
    const lost = (c: pg.Client) => {
      if (client === c) client = null;
      clearInterval(check);
      void endWithin(c, 0);
      clearTimeout(retry);
      if (!stopped) retry = setTimeout(connect, 1000).unref();
    };
    const connect = async () => {
      if (stopped) return;
      const c = new pg.Client(this.clientConfig());
      c.on('notification', () => listener());
      c.on('error', () => lost(c));
      try {
        await c.connect();
        await c.query(`LISTEN ${CHANGE_CHANNEL}`);
        if (stopped) return void endWithin(c, 0);
        client = c;
        clearInterval(check);
        // One check at a time: a database slow to answer must not get a second query on the
        // same connection (pg refuses to queue on a busy client in its next major version).
        let checking = false;
        check = setInterval(() => {
          if (checking) return;
          checking = true;
          c.query('SELECT 1').then(
            () => { checking = false; },
            () => { checking = false; lost(c); },
          );
        }, checkEveryMs).unref();
        listener(); // catch up on anything missed while disconnected
      } catch {
        lost(c);
      }
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(check);
      if (client) await endWithin(client, CLOSE_WAIT_MS);
    };
  }

  async close(): Promise<void> {
    // A frozen peer never acknowledges the goodbye: wait a little, then cut.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.pool.end().catch(() => {}),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}

/**
 * Gives a failed transaction's connection back to the pool with its error, so the pool
 * closes it: the server then rolls the transaction back. No ROLLBACK is sent: after a
 * timeout the connection may be dead, and a ROLLBACK would wait out a timeout of its own.
 */
function discard(client: pg.PoolClient, err: unknown): void {
  client.release(err instanceof Error ? err : new Error(String(err)));
}

/** Ends `client`, cutting its socket if the server has not acknowledged within `waitMs`. */
async function endWithin(client: pg.Client, waitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = client.end().catch(() => {});
  await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
}

async function readDataset(client: pg.PoolClient): Promise<Dataset> {
  return rowsToDataset(await readRows(client));
}

async function readRows(client: pg.PoolClient): Promise<DatasetRows> {
  const all = async (sql: string) => (await client.query<Row>(sql)).rows;
  return {
    categories: await all(`SELECT ${CATEGORY_COLUMNS.join(', ')} FROM categories ORDER BY position`),
    tools: await all(`SELECT ${TOOL_COLUMNS.join(', ')} FROM tools ORDER BY slug COLLATE "C"`),
    redirects: await all(`SELECT ${REDIRECT_COLUMNS.join(', ')} FROM tool_redirects ORDER BY tool_slug COLLATE "C", position`),
    collections: await all(`SELECT ${COLLECTION_COLUMNS.join(', ')} FROM collections ORDER BY position`),
    items: await all(`SELECT ${ITEM_COLUMNS.join(', ')} FROM collection_items ORDER BY collection_slug COLLATE "C", position`),
    synonyms: await all(`SELECT ${SYNONYM_COLUMNS.join(', ')} FROM search_synonyms ORDER BY position`),
    documents: await all(`SELECT ${DOCUMENT_COLUMNS.join(', ')} FROM content_documents ORDER BY name`),
  };
}

/** Multi-row INSERTs in batches, JSON columns sent as JSON text. */
async function insertAll(client: pg.PoolClient, table: string, columns: readonly string[], rows: Row[]): Promise<void> {
  const batch = Math.max(1, Math.floor(30_000 / columns.length));
  for (let start = 0; start < rows.length; start += batch) {
    const slice = rows.slice(start, start + batch);
    const values: unknown[] = [];
    const tuples = slice.map((row) => {
      const placeholders = columns.map((column) => {
        const v = row[column];
        values.push(JSON_COLUMNS.has(column) && v !== null ? JSON.stringify(v) : v);
        return `$${values.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }
}
