// Preloaded into a child process (test/cli/interrupted-write.test.ts): the first file a
// command writes with fs/promises' writeFile is created empty and the write never ends, as
// when the process is killed between creating a file and filling it. The test kills the
// process once stderr names the file, and looks at what was left behind.
import fs from 'node:fs/promises';
import { closeSync, openSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

fs.writeFile = (file) => {
  closeSync(openSync(file, 'w'));
  process.stderr.write(`[interrupted-writes] created ${file}\n`);
  return new Promise(() => {});
};
syncBuiltinESMExports();
