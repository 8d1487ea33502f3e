/** PostgreSQL as the source of truth for several instances: live reload and outages. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { importContent } from '../../src/content/import-content.js';
import { LiveDirectory } from '../../src/live-directory.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { CuttableRelay, POSTGRES_URL, postgresSchema, skipWithoutPostgres, withSearchPath } from '../helpers/services.js';

const run = promisify(execFile);

/** Migrates `store` and imports the fixture content into it; returns both, to edit and import again. */
async function importFixture(store: PostgresStore) {
  await store.migrate();
  const dataset = fixtureDataset();
  const content = await writeContent(path.join(await tempDir(), 'c'), dataset);
  assert.ok((await importContent(store, content)).ok);
  return { dataset, content };
}

describe('PostgreSQL live data', { skip: skipWithoutPostgres }, () => {
  test('an import through one store is served by another instance within 2 s', async (t) => {
    const pg = await postgresSchema();
    const writer = await PostgresStore.connect(pg.url);
    const reader = await PostgresStore.connect(pg.url);
    const { dataset, content } = await importFixture(writer);
    // A slow poll, so only NOTIFY can make the 2 s.
    const live = await LiveDirectory.open(reader, { checkEveryMs: 60_000 });
    await live.start();
    t.after(async () => {
      await live.stop();
      await writer.close();
      await reader.close();
      await pg.drop();
    });
    assert.equal(live.current.model.revision, 1);
    dataset.tools[0]!.name = 'Nom changé';
    await writeContent(content, dataset);
    const started = Date.now();
    assert.ok((await importContent(writer, content)).ok);
    while ((live.current.model.revision as number) !== 2 && Date.now() - started < 2_000) await sleep(20);
    assert.equal(live.current.model.revision, 2, 'served within 2 s');
    assert.ok(live.current.model.tools.some((x) => x.name === 'Nom changé'));
  });

  test('PostgreSQL gone: the last revision keeps serving; an import fails non-zero and changes nothing', async (t) => {
    const pg = await postgresSchema();
    const target = new URL(POSTGRES_URL!);
    const relay = await CuttableRelay.start({ host: target.hostname, port: Number(target.port || 5432) });
    const viaRelay = new URL(pg.url);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const store = await PostgresStore.connect(viaRelay.toString());
    const { dataset, content } = await importFixture(store);
    const live = await LiveDirectory.open(store, { checkEveryMs: 60_000 });
    t.after(async () => {
      await live.stop();
      await relay.down();
      await store.close().catch(() => {});
      await pg.drop();
    });

    await relay.down();
    assert.equal(await live.refresh(), false);
    assert.equal(live.storeReachable, false);
    assert.equal(live.current.model.tools.length, 9, 'still serving the last revision');

    dataset.tools[0]!.name = 'Jamais importé';
    await writeContent(content, dataset);
    const cli = path.resolve(import.meta.dirname, '../../src/cli/import.ts');
    const outcome = await run(process.execPath, ['--import', 'tsx', cli, '--content', content, '--database', viaRelay.toString()]).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(outcome.code, 3, outcome.stderr);
    assert.match(outcome.stderr, /Cannot open the database|Import failed/);

    await relay.up();
    assert.equal(await live.refresh(), false, 'nothing new: the failed import changed nothing');
    assert.equal(live.storeReachable, true);
    const direct = await PostgresStore.connect(withSearchPath(POSTGRES_URL!, pg.schema));
    t.after(() => direct.close());
    assert.equal(await direct.revision(), 1);
  });
});
