// Runs the given test files, or those under the given folders (default: test/), with node's test runner.
// Node 20's `--test` does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function testFiles(dir) {
  if (!statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir).sort().flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return testFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const roots = process.argv.slice(2);
const files = (roots.length ? roots : ['test']).flatMap(testFiles);
// Every test process fails on pg's busy-client warning (test/helpers/busy-client-warning.mjs).
const busyClient = path.resolve(import.meta.dirname, '../test/helpers/busy-client-warning.mjs');
const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', busyClient, '--test', '--test-concurrency=1', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
