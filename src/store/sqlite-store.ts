/**
 * The embedded store: one SQLite file through better-sqlite3 (the version that suits the
 * running Node.js: sqlite-driver.ts). WAL lets the server read while an import writes;
 * imports run in `BEGIN IMMEDIATE` so a read-then-write transaction cannot fail with
 * SQLITE_BUSY half-way (see PITFALLS.md, "Data").
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Dataset, Snapshot } from '../domain.js';
import { CHANGE_COLUMNS, SELECT_CHANGES, SELECT_HISTORY_SLUGS, SELECT_LATEST_CHANGE, changeHistory, changeInstant, changesToRows, rowsToChanges, toolChanges } from './change-log.js';
import type { DirectoryStore } from './directory-store.js';
import { diffDatasets, type ImportReport } from './import-report.js';
import { migrations } from './schema-migrations.js';
import {
  CATEGORY_COLUMNS, COLLECTION_COLUMNS, ITEM_COLUMNS, DOCUMENT_COLUMNS, JSON_COLUMNS, REDIRECT_COLUMNS, SYNONYM_COLUMNS, TOOL_COLUMNS,
  datasetSteps, datasetToRows, rowsToDataset, type DatasetRows, type Row,
} from './rows.js';
import { runAtOnce, runInSlices, type Steps } from '../slices.js';
import { sqliteDriver } from './sqlite-driver.js';

/** Versioned schema migrations, applied in order, each once. */
const MIGRATIONS = migrations('sqlite');

const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;

const toSqlite = (row: Row): Row => {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = JSON_COLUMNS.has(k) ? (v === null ? null : JSON.stringify(v)) : v;
  return out;
};

export class SqliteStore implements DirectoryStore {
  readonly engine = 'sqlite' as const;

  /** Snapshot reads, one at a time on their own connection (see readSnapshot). */
  private reading: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: Database.Database,
    /** Where snapshots are read a batch at a time, while `db` keeps answering. */
    private readonly reader: Database.Database,
    readonly driver: string,
  ) {}

  static open(file: string): SqliteStore {
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const { Database, name } = sqliteDriver();
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    // An in-memory database exists for one connection only.
    const reader = file === ':memory:' ? db : new Database(file, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    return new SqliteStore(db, reader, `${name} (SQLite ${db.prepare('SELECT sqlite_version()').pluck().get() as string})`);
  }

  async migrate(): Promise<void> {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = new Set(this.db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      this.db.transaction(() => {
        this.db.exec(migration.sql);
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(migration.version, new Date().toISOString());
      }).immediate();
    }
  }

  async revision(): Promise<number> {
    return this.db.prepare('SELECT revision FROM directory_meta WHERE id = 1').pluck().get() as number;
  }

  /**
   * The dataset as of one commit, read in slices (src/slices.ts): a batch of rows at a time in
   * one read transaction on the reader connection, so a server loading a big revision keeps
   * answering, and an import committing meanwhile is either all in or not at all.
   */
  async readSnapshot(): Promise<Snapshot> {
    const read = this.reading.then(() => runInSlices(this.snapshotSteps()));
    this.reading = read.catch(() => {});
    return read;
  }

  private *snapshotSteps(): Steps<Snapshot> {
    const reader = this.reader;
    reader.exec('BEGIN');
    let revision: number;
    let rows: DatasetRows;
    let changeRows: Row[];
    try {
      revision = reader.prepare('SELECT revision FROM directory_meta WHERE id = 1').pluck().get() as number;
      rows = yield* datasetRows(reader);
      changeRows = yield* batches(reader, SELECT_CHANGES);
    } finally {
      reader.exec('COMMIT');
    }
    return { revision, dataset: yield* datasetSteps(rows), changes: rowsToChanges(changeRows) };
  }

  private readDataset(): Dataset {
    return rowsToDataset(runAtOnce(datasetRows(this.db)));
  }

  async replaceDataset(dataset: Dataset): Promise<ImportReport> {
    const run = this.db.transaction((): ImportReport => {
      const before = this.readDataset();
      const diff = diffDatasets(before, dataset);
      const current = this.db.prepare('SELECT revision FROM directory_meta WHERE id = 1').pluck().get() as number;
      if (!diff.changed) return { ...diff, revision: current };
      for (const table of ['content_documents', 'search_synonyms', 'collection_items', 'collections', 'tool_redirects', 'tools', 'categories']) {
        this.db.prepare(`DELETE FROM ${table}`).run();
      }
      const rows = datasetToRows(dataset);
      const load = (table: string, columns: readonly string[], list: Row[]) => {
        const stmt = this.db.prepare(insertSql(table, columns));
        for (const row of list) stmt.run(toSqlite(row));
      };
      load('categories', CATEGORY_COLUMNS, rows.categories);
      load('tools', TOOL_COLUMNS, rows.tools);
      load('tool_redirects', REDIRECT_COLUMNS, rows.redirects);
      load('collections', COLLECTION_COLUMNS, rows.collections);
      load('collection_items', ITEM_COLUMNS, rows.items);
      load('search_synonyms', SYNONYM_COLUMNS, rows.synonyms);
      load('content_documents', DOCUMENT_COLUMNS, rows.documents);
      const revision = current + 1;
      const history = changeHistory(this.db.prepare(SELECT_HISTORY_SLUGS).all() as Row[], this.db.prepare(SELECT_LATEST_CHANGE).pluck().get());
      const now = new Date();
      load('tool_changes', CHANGE_COLUMNS, changesToRows(toolChanges(before, dataset, history, revision, changeInstant(now, history.latest))));
      this.db.prepare('UPDATE directory_meta SET revision = ?, imported_at = ? WHERE id = 1').run(revision, now.toISOString());
      return { ...diff, revision };
    });
    return run.immediate();
  }

  async close(): Promise<void> {
    if (this.reader !== this.db) this.reader.close();
    this.db.close();
  }
}

/** A query's rows, a batch at a time. */
function* batches(connection: Database.Database, sql: string): Steps<Row[]> {
  const rows: Row[] = [];
  for (const row of connection.prepare(sql).iterate() as IterableIterator<Row>) {
    rows.push(row);
    if (rows.length % 2000 === 0) yield;
  }
  return rows;
}

/** Every table's rows, a batch at a time. */
function* datasetRows(connection: Database.Database): Steps<DatasetRows> {
  const all = (sql: string) => batches(connection, sql);
  return {
    categories: yield* all(`SELECT ${CATEGORY_COLUMNS.join(', ')} FROM categories ORDER BY position`),
    tools: yield* all(`SELECT ${TOOL_COLUMNS.join(', ')} FROM tools ORDER BY slug`),
    redirects: yield* all(`SELECT ${REDIRECT_COLUMNS.join(', ')} FROM tool_redirects ORDER BY tool_slug, position`),
    collections: yield* all(`SELECT ${COLLECTION_COLUMNS.join(', ')} FROM collections ORDER BY position`),
    items: yield* all(`SELECT ${ITEM_COLUMNS.join(', ')} FROM collection_items ORDER BY collection_slug, position`),
    synonyms: yield* all(`SELECT ${SYNONYM_COLUMNS.join(', ')} FROM search_synonyms ORDER BY position`),
    documents: yield* all(`SELECT ${DOCUMENT_COLUMNS.join(', ')} FROM content_documents ORDER BY name`),
  };
}
