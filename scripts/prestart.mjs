// Before `npm start`: build when the TypeScript compiler is installed (a clone after
// `npm install`), else start from what `npm run build` made earlier (a production install
// with `npm ci --omit=dev`, or the container image). Fails with a clear message otherwise.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
const built = path.join(root, 'dist', 'src', 'server.js');
if (existsSync(tsc)) {
  const result = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
if (existsSync(built)) process.exit(0);
console.error('dist/ is missing and TypeScript is not installed: run `npm install && npm run build` first (or use the container image).');
process.exit(1);
