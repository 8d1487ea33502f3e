// The same API and live-data suites, run a second time with PostgreSQL as the store
// (one suite, two stores). Skipped, and said so, when TEST_POSTGRES_URL is not set.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

if (!process.env.TEST_POSTGRES_URL) {
  console.log('# TEST_POSTGRES_URL is not set: the API suite on PostgreSQL is skipped');
  process.exit(0);
}
console.log('# API and live-data suites again, on PostgreSQL');
const result = spawnSync(
  process.execPath,
  ['scripts/run-tests.mjs', 'test/api', 'test/live'],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      TEST_ENGINE: 'postgres',
      // A query on a busy PostgreSQL client fails the run (test/helpers/busy-client-warning.mjs).
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(path.resolve(import.meta.dirname, '../test/helpers/busy-client-warning.mjs')).href}`.trim(),
    },
  },
);
process.exit(result.status ?? 1);
