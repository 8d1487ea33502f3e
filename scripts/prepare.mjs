// After `npm install` in a clone: build the typed client (packages/client/dist), so that
// `npm install <clone>/packages/client` works from another project. Skipped, and said so,
// in a production install without the TypeScript compiler.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
if (!existsSync(tsc)) {
  console.log('prepare: TypeScript is not installed (production install): the typed client is not built');
  process.exit(0);
}
const result = spawnSync(tsc, ['-p', path.join('packages', 'client', 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
