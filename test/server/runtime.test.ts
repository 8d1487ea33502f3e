/**
 * The embedded store on the running Node.js: the real server and the real import CLI under
 * constant garbage collection, then a signal. better-sqlite3 12 on Node.js 24.19+ aborts in
 * exactly this situation (a prepared statement finalised at the wrong moment), killing the
 * process with a native assertion instead of exiting 0. CI runs this on Node.js 20, 22 and 24.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { API } from '../helpers/build-app.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { send } from '../helpers/http.js';
import { GC_PRESSURE, IMPORT_CLI, NATIVE_FAILURE, startServer } from '../helpers/server-process.js';

const run = promisify(execFile);
const UNDER_GC = ['--expose-gc', '--import', GC_PRESSURE];

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`runtime › under constant GC, serving while imports land, then ${signal}: exit 0, no native failure`, async (t) => {
    const dir = await tempDir();
    t.after(() => rm(dir, { recursive: true, force: true }));
    const dataset = fixtureDataset();
    const content = await writeContent(path.join(dir, 'content'), dataset);
    const database = path.join(dir, 'db.sqlite');
    const server = await startServer(t, { DATABASE_URL: database, CONTENT_DIR: content, REVISION_CHECK_MS: '100', RATE_LIMIT_MAX: '0' }, UNDER_GC);

    for (let round = 1; round <= 3; round++) {
      dataset.tools[0]!.name = `Quizzy ${round}`;
      await writeContent(content, dataset);
      // The import CLI runs under the same pressure, while requests keep coming.
      const importing = run(process.execPath, [...UNDER_GC, '--import', 'tsx', IMPORT_CLI, '--content', content, '--database', database], { env: { ...process.env, DATABASE_URL: '' } });
      const requests = Array.from({ length: 40 }, (_, i) => send(server.port, `${API}/tools?q=${['quiz', 'eleve', 'ecrire', 'zebre'][i % 4]}&page=${1 + (i % 3)}`));
      const [{ stderr }, responses] = await Promise.all([importing, Promise.all(requests)]);
      assert.doesNotMatch(stderr, NATIVE_FAILURE);
      assert.ok(responses.every((r) => r.status === 200), 'every request answered');
      // Wait until the server has loaded the new revision (it prepares statements to read it).
      let revision = 0;
      for (let i = 0; i < 100 && revision < round + 1; i++) {
        revision = JSON.parse((await send(server.port, '/readyz')).body.toString()).revision;
        if (revision < round + 1) await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(revision, round + 1, 'the import was loaded');
    }
    const detail = JSON.parse((await send(server.port, `${API}/tools/quizzy`)).body.toString());
    assert.equal(detail.data.name, 'Quizzy 3');

    const exit = await server.stop(signal);
    assert.doesNotMatch(server.stderr(), NATIVE_FAILURE);
    assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
  });
}
