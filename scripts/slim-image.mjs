// The container image's build stage, after `npm run build` and `npm prune --omit=dev`: removes
// from the app folder ($1) what the server never reads, so the image carries the compiled
// server, the production dependencies' code and their licences. Measured in
// docs/deployment.md ("Containers"). Not for a clone: it deletes files npm installed.
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const app = path.resolve(process.argv[2] ?? '.');
const modules = path.join(app, 'node_modules');
let files = 0;
let bytes = 0;
const remove = (target) => {
  let st;
  try {
    st = statSync(target);
  } catch {
    return;
  }
  if (st.isDirectory()) for (const entry of readdirSync(target)) remove(path.join(target, entry));
  else {
    files++;
    bytes += st.size;
  }
  rmSync(target, { recursive: true, force: true });
};
const walk = (dir, visit) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (visit(full, entry) !== false && entry.isDirectory() && !entry.isSymbolicLink()) walk(full, visit);
  }
};

// dist/: the server's own output only (not the tests, benchmarks, scripts or client that the
// same tsconfig compiles), without source maps (the server runs without --enable-source-maps).
for (const entry of readdirSync(path.join(app, 'dist'))) if (entry !== 'src') remove(path.join(app, 'dist', entry));
walk(path.join(app, 'dist'), (full) => (full.endsWith('.map') ? (remove(full), false) : true));

// The screenshot tool (npm run screenshots) needs Chromium and runs on the publisher's
// machine, never on an instance (docs/deployment.md): its browser driver and image encoder
// are the only users of playwright-core and sharp.
for (const name of ['playwright-core', 'sharp', '@img']) remove(path.join(modules, name));
for (const file of ['cli/screenshots.js', 'publishing/screenshot-capture.js']) remove(path.join(app, 'dist', 'src', file));

// better-sqlite3: the binary for this platform only; its C++ sources, the SQLite amalgamation
// and node-addon-api (headers) serve only a compile.
const sqlite = path.join(modules, 'better-sqlite3');
const platform = `${process.platform}${process.report?.getReport().header.glibcVersionRuntime ? '' : 'musl'}-${process.arch}`;
for (const entry of safeList(path.join(sqlite, 'prebuilds'))) if (entry !== `${platform}.node`) remove(path.join(sqlite, 'prebuilds', entry));
for (const entry of ['deps', 'src', 'build', 'binding.gyp']) remove(path.join(sqlite, entry));
remove(path.join(modules, 'node-addon-api'));

// simple-icons: the server reads its data/ and icons/ (src/logos/simple-icons.ts) and resolves
// its CommonJS main file, never its ES module index (5 MB).
for (const file of ['index.mjs', 'index-icons.mjs']) remove(path.join(modules, 'simple-icons', file));

// Every package: documentation, type declarations, source maps, TypeScript sources and
// top-level test folders. Licences stay.
const keep = /^(licen[cs]e|copying|notice|authors)/i;
const dropFile = /\.(md|markdown|d\.ts|d\.mts|d\.cts|map|ts|mts|cts|tsbuildinfo)$|^(\.npmignore|\.eslintrc.*|\.prettierrc.*|\.editorconfig|tsconfig\..*json|tsconfig\.json)$/i;
const dropDir = new Set(['test', 'tests', '__tests__', '.github', 'coverage']);
walk(modules, (full, entry) => {
  if (entry.isDirectory()) {
    // node_modules/<pkg>/test or node_modules/@scope/<pkg>/test only: deeper, a folder named
    // test may be code.
    const parts = full.split(path.sep);
    const rel = parts.slice(parts.lastIndexOf('node_modules') + 1);
    const depth = rel[0]?.startsWith('@') ? 3 : 2;
    if (dropDir.has(entry.name) && rel.length === depth) {
      remove(full);
      return false;
    }
    return true;
  }
  if (entry.isFile() && !keep.test(entry.name) && dropFile.test(entry.name)) remove(full);
  return true;
});
remove(path.join(modules, '.cache'));

console.log(`slim-image: removed ${files} files, ${(bytes / 1e6).toFixed(1)} MB`);

function safeList(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
