// npm runs this after installing the switch, that is on Node.js 20 only (engines). It compiles
// the better-sqlite3 12 beneath it with node-gyp (the one npm brings, on the PATH of every
// script npm runs), from the sources in the package: the project's allowScripts denies
// better-sqlite3's own install script (a download of a prebuilt binary, which these machines
// cannot reach, then the same compile) so that better-sqlite3 13 compiles nothing on Node.js
// 22 and 24 (docs/architecture.md, "The embedded SQLite driver").
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const dir = path.dirname(require.resolve('better-sqlite3/package.json', { paths: [__dirname] }));
// An npm that predates the allowScripts policy runs better-sqlite3's own install script,
// which compiles it: a second compile here would race it.
const npmCli = process.env.npm_execpath;
const policy = npmCli && existsSync(path.join(path.dirname(npmCli), '..', 'node_modules', '@npmcli', 'arborist', 'lib', 'script-allowed.js'));
if (npmCli && !policy) {
  console.log('better-sqlite3-node20: this npm runs better-sqlite3\'s own install script; nothing to do here');
  process.exit(0);
}
console.log(`better-sqlite3-node20: compiling better-sqlite3 ${require(path.join(dir, 'package.json')).version} for Node.js ${process.version}`);
const result = spawnSync('node-gyp', ['rebuild', '--release'], { cwd: dir, stdio: 'inherit' });
if (result.error) console.error(`better-sqlite3-node20: node-gyp: ${result.error.message}`);
process.exit(result.status ?? 1);
