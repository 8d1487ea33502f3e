// Before `npm start`: build when the TypeScript compiler is installed (a clone after
// `npm install`) and a source is newer than the build, else start from what `npm run build`
// made earlier (a production install with `npm ci --omit=dev`, or the container image).
// Fails with a clear message when there is nothing to start.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
const built = path.join(root, 'dist', 'src', 'server.js');

/** The newest modification time of the server's TypeScript sources and the compiler's settings. */
function newestSource() {
  let newest = statSync(path.join(root, 'tsconfig.json')).mtimeMs;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  walk(path.join(root, 'src'));
  return newest;
}

if (existsSync(tsc)) {
  // A second start with no source changed since the last build starts at once (tsc takes ~20 s).
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource()) {
    console.log('prestart: the build is newer than every source in src/: not rebuilding');
    process.exit(0);
  }
  const result = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
if (existsSync(built)) process.exit(0);
console.error('dist/ is missing and TypeScript is not installed: run `npm install && npm run build` first (or use the container image).');
process.exit(1);
