/**
 * The SQLite driver for the running Node.js (docs/architecture.md, "The embedded SQLite
 * driver"). better-sqlite3 12 aborts on Node.js ≥ 24.19 when a statement is collected at the
 * wrong moment (its raw ObjectWrap destructor asserts), so Node.js 22 and later use
 * better-sqlite3 13 (Node-API, binaries inside the npm package, nothing to compile); 13
 * does not load on Node.js 20, which keeps 12, compiled at install. Both are optional
 * dependencies that npm installs only on the Node.js their `engines` name, and both have the
 * same API, so the store has one implementation.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export interface SqliteDriver {
  Database: typeof BetterSqlite3;
  /** `better-sqlite3 13.2.0`, for /readyz and the start-up log. */
  name: string;
}

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
/** The package that brings the driver for this Node.js. */
export const DRIVER_PACKAGE = NODE_MAJOR >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

let driver: SqliteDriver | undefined;

export function sqliteDriver(): SqliteDriver {
  if (driver) return driver;
  const require = createRequire(import.meta.url);
  try {
    // On Node.js 20, better-sqlite3 12 is resolved from beneath its switch package.
    const from = DRIVER_PACKAGE === 'better-sqlite3' ? require : createRequire(require.resolve(`${DRIVER_PACKAGE}/package.json`));
    const version = (from('better-sqlite3/package.json') as { version: string }).version;
    driver = { Database: from('better-sqlite3') as typeof BetterSqlite3, name: `better-sqlite3 ${version}` };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(
      `The SQLite driver for Node.js ${process.version} (${DRIVER_PACKAGE}) is not installed: node_modules was ` +
        'installed with another major version of Node.js, or the driver failed to install and npm dropped it (an optional ' +
        'dependency). Run `npm ci` again with this one: its last step, scripts/check-sqlite-driver.mjs, says what is missing.',
    );
  }
  return driver;
}
