// After every install (npm's postinstall) and in the image's build: the SQLite driver for the
// running Node.js loads and answers a query, or this fails, loudly, naming what to do. npm
// drops an optional dependency whose install failed without failing the install, so without
// this a missing driver would first show at the server's start (docs/architecture.md,
// "The embedded SQLite driver"). The choice of package is src/store/sqlite-driver.ts's.
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const major = Number(process.versions.node.split('.')[0]);
const driverPackage = major >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';
const require = createRequire(path.join(root, 'package.json'));

try {
  const from = driverPackage === 'better-sqlite3' ? require : createRequire(require.resolve(`${driverPackage}/package.json`));
  const { version } = from('better-sqlite3/package.json');
  const Database = from('better-sqlite3');
  const db = new Database(':memory:');
  const sqlite = db.prepare('SELECT sqlite_version() AS v').get().v;
  db.close();
  console.log(`check-sqlite-driver: better-sqlite3 ${version} (SQLite ${sqlite}) loads on Node.js ${process.version}`);
} catch (err) {
  const how =
    major >= 22
      ? 'better-sqlite3 13 ships its binaries in the npm package and needs no compiler: install again with this Node.js (npm ci).'
      : 'On Node.js 20, better-sqlite3 12 is compiled at install: it needs python3, make and a C++ compiler (node-gyp), then npm ci again.';
  console.error(
    [
      '',
      `check-sqlite-driver: FAILED: the SQLite driver for Node.js ${process.version} (${driverPackage}) does not load.`,
      `  ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
      `  ${how}`,
      '  The server cannot open its embedded SQLite store without it (docs/architecture.md, "The embedded SQLite driver").',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
