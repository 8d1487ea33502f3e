/**
 * PostgreSQL as the source of truth (DATABASE_URL=postgres://…), for several instances.
 * Imports are DELETE + INSERT in one transaction (never TRUNCATE: its ACCESS EXCLUSIVE lock
 * blocks readers, see PITFALLS.md), then `NOTIFY directory_changed` so every instance
 * reloads; snapshots are read in one REPEATABLE READ transaction so they never mix imports.
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import type { Dataset, Snapshot } from '../domain.js';
import { CHANGE_COLUMNS, SELECT_CHANGES, SELECT_HISTORY_SLUGS, SELECT_LATEST_CHANGE, changeHistory, changeInstant, changesToRows, rowsToChanges, toolChanges } from './change-log.js';
import type { DirectoryStore } from './directory-store.js';
import { diffDatasets, type ImportReport } from './import-report.js';
import { runInSlices } from '../slices.js';
import { migrations } from './schema-migrations.js';
import {
  CATEGORY_COLUMNS, COLLECTION_COLUMNS, ITEM_COLUMNS, JSON_COLUMNS, REDIRECT_COLUMNS, SYNONYM_COLUMNS, TOOL_COLUMNS,
  datasetSteps, datasetToRows, rowsToDataset, type DatasetRows, type Row,
} from './rows.js';

export const CHANGE_CHANNEL = 'directory_changed';
/** Serialises migrations across instances starting at once. */
const MIGRATION_LOCK = 73_021_457;

const MIGRATIONS = migrations('postgres');
const PG_VERSION = (createRequire(import.meta.url)('pg/package.json') as { version: string }).version;

export interface PostgresStoreOptions {
  /** Search path schema, so tests can run in a schema of their own. */
  schema?: string;
}

export class PostgresStore implements DirectoryStore {
  readonly engine = 'postgres' as const;
  /** Learnt at migration, the first query a process makes. */
  private serverVersion: string | null = null;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  static async connect(url: string): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000, idleTimeoutMillis: 10_000 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    return new PostgresStore(pool, url);
  }

  get driver(): string {
    return `pg ${PG_VERSION}${this.serverVersion ? ` (PostgreSQL ${this.serverVersion})` : ''}`;
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
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
      client.release();
    }
  }

  async revision(): Promise<number> {
    const { rows } = await this.pool.query<{ revision: string }>('SELECT revision FROM directory_meta WHERE id = 1');
    return Number(rows[0]!.revision);
  }

  async readSnapshot(): Promise<Snapshot> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ revision: string }>('SELECT revision FROM directory_meta WHERE id = 1');
      const datasetRows = await readRows(client);
      const changeRows = (await client.query<Row>(SELECT_CHANGES)).rows;
      await client.query('COMMIT');
      // Rows to records in slices (src/slices.ts): a server keeps answering meanwhile.
      return { revision: Number(rows[0]!.revision), dataset: await runInSlices(datasetSteps(datasetRows)), changes: rowsToChanges(changeRows) };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
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
        return { ...diff, revision: current };
      }
      for (const table of ['search_synonyms', 'collection_items', 'collections', 'tool_redirects', 'tools', 'categories']) {
        await client.query(`DELETE FROM ${table}`);
      }
      const rowsToLoad = datasetToRows(dataset);
      await insertAll(client, 'categories', CATEGORY_COLUMNS, rowsToLoad.categories);
      await insertAll(client, 'tools', TOOL_COLUMNS, rowsToLoad.tools);
      await insertAll(client, 'tool_redirects', REDIRECT_COLUMNS, rowsToLoad.redirects);
      await insertAll(client, 'collections', COLLECTION_COLUMNS, rowsToLoad.collections);
      await insertAll(client, 'collection_items', ITEM_COLUMNS, rowsToLoad.items);
      await insertAll(client, 'search_synonyms', SYNONYM_COLUMNS, rowsToLoad.synonyms);
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
      return { ...diff, revision };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** LISTEN on a dedicated connection; reconnects after a loss (the poll covers the gap). */
  async watch(listener: () => void): Promise<() => Promise<void>> {
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async () => {
      if (stopped) return;
      const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
      c.on('notification', () => listener());
      c.on('error', () => {
        c.end().catch(() => {});
        if (client === c) client = null;
        if (!stopped) retry = setTimeout(connect, 1000).unref();
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${CHANGE_CHANNEL}`);
        client = c;
        listener(); // catch up on anything missed while disconnected
      } catch {
        c.end().catch(() => {});
        if (!stopped) retry = setTimeout(connect, 1000).unref();
      }
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
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
