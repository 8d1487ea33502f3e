// The same API and live-data suites, run a second time with PostgreSQL as the store
// (one suite, two stores). Skipped, and said so, when TEST_POSTGRES_URL is not set.
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_POSTGRES_URL) {
  console.log('# TEST_POSTGRES_URL is not set: the API suite on PostgreSQL is skipped');
  process.exit(0);
}
console.log('# API and live-data suites again, on PostgreSQL');
const result = spawnSync(
  process.execPath,
  ['scripts/run-tests.mjs', 'test/api', 'test/live'],
  // run-tests.mjs makes a query on a busy PostgreSQL client fail the run (test/helpers/busy-client-warning.mjs).
  { stdio: 'inherit', env: { ...process.env, TEST_ENGINE: 'postgres' } },
);
process.exit(result.status ?? 1);
