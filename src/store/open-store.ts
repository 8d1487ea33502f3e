/**
 * The store factory, apart from the interface both stores implement (directory-store.ts), so
 * that no store file imports the file that imports it.
 */
import type { DirectoryStore } from './directory-store.js';

/** Opens the store that `databaseUrl` names: `postgres://…` or a SQLite file path / `sqlite:` URL. */
export async function openStore(databaseUrl: string, options: { timeoutMs?: number } = {}): Promise<DirectoryStore> {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    const { PostgresStore } = await import('./postgres-store.js');
    return PostgresStore.connect(databaseUrl, { queryTimeoutMs: options.timeoutMs });
  }
  const { SqliteStore } = await import('./sqlite-store.js');
  return SqliteStore.open(databaseUrl.replace(/^sqlite:(\/\/)?/i, ''));
}
