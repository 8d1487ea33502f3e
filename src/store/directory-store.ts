/**
 * The source of truth behind one small interface. SQLite (the default, embedded) and
 * PostgreSQL implement it; nothing above this layer writes SQL.
 */
import type { Dataset, Snapshot } from '../domain.js';
import type { ImportReport } from './import-report.js';

export interface DirectoryStore {
  /** `sqlite` or `postgres`, for /readyz and logs. */
  readonly engine: 'sqlite' | 'postgres';
  /** The client library and server version behind it, e.g. `better-sqlite3 13.2.0 (SQLite 3.54.1)`. */
  readonly driver: string;
  /** Applies the pending schema migrations. Idempotent. */
  migrate(): Promise<void>;
  /** The revision of the data: a number that grows with every import that changed something. */
  revision(): Promise<number>;
  /** The whole dataset and its revision, read in one consistent transaction. */
  readSnapshot(): Promise<Snapshot>;
  /**
   * Replaces the whole dataset in one transaction: all of it lands, or nothing does.
   * A dataset equal to the stored one changes nothing, not even the revision.
   */
  replaceDataset(dataset: Dataset): Promise<ImportReport>;
  /** Calls `listener` soon after another process commits an import (where the engine can tell). */
  watch?(listener: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
