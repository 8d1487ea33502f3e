/**
 * PostgreSQL connections that die silently (issue 17, item 7): after a failover the old
 * connections stop answering without a reset. Played by a relay that freezes: nothing flows,
 * nothing closes. /readyz must stop claiming the store is reachable, a committed import must
 * be loaded once the database answers again, and SIGTERM must not wait on the dead peer.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { importContent } from '../../src/content/import-content.js';
import { LiveDirectory } from '../../src/live-directory.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { send } from '../helpers/http.js';
import { startServer } from '../helpers/server-process.js';
import { CuttableRelay, POSTGRES_URL, postgresSchema, skipWithoutPostgres, until } from '../helpers/services.js';

/** A fresh schema with the fixture imported, and a relay in front of the database. */
async function frozenDatabase(t: TestContext) {
  const pg = await postgresSchema();
  const direct = await PostgresStore.connect(pg.url);
  await direct.migrate();
  const dataset = fixtureDataset();
  const content = await writeContent(path.join(await tempDir(), 'c'), dataset);
  assert.ok((await importContent(direct, content)).ok);
  const target = new URL(POSTGRES_URL!);
  const relay = await CuttableRelay.start({ host: target.hostname, port: Number(target.port || 5432) });
  const viaRelay = new URL(pg.url);
  viaRelay.hostname = '127.0.0.1';
  viaRelay.port = String(relay.port);
  t.after(async () => {
    await relay.down();
    await direct.close();
    await pg.drop();
  });
  return { relay, url: viaRelay.toString(), direct, dataset, content };
}


describe('PostgreSQL faults', { skip: skipWithoutPostgres }, () => {
  test('frozen connections: /readyz says unreachable within the timeout; a committed import is loaded once they answer', async (t) => {
    const { relay, url, direct, dataset, content } = await frozenDatabase(t);
    const timeoutMs = 1000;
    const store = await PostgresStore.connect(url, { queryTimeoutMs: timeoutMs, listenCheckMs: 500 });
    // A slow poll would hide nothing here: the check runs often, as in production.
    const directory = await LiveDirectory.open(store, { checkEveryMs: 200, refreshTimeoutMs: 10 * timeoutMs });
    await directory.start();
    const config = loadConfig({ RATE_LIMIT_MAX: '0', DATABASE_URL: url });
    const app = await buildApp({ config, directory, limiter: null, fastify: { logger: false } });
    t.after(async () => {
      await app.close();
      await directory.stop();
      await store.close();
    });
    const readyz = async () => (await app.inject({ url: '/readyz' })).json() as { store: { reachable: boolean }; revision: number };
    assert.equal((await readyz()).store.reachable, true);

    relay.freeze();
    const frozenAt = Date.now();
    assert.ok(await until(async () => !(await readyz()).store.reachable, 8_000), '/readyz reports the store unreachable');
    const detectedMs = Date.now() - frozenAt;
    // The query timeout, plus a check interval, plus slack for a loaded machine.
    assert.ok(detectedMs < timeoutMs + 4_000, `detected after ${detectedMs} ms`);
    const during = await app.inject({ url: '/readyz' });
    assert.equal(during.statusCode, 200, 'the last revision keeps serving');

    // Another instance (not behind the frozen path) commits an import meanwhile.
    dataset.tools[0]!.name = 'Importé pendant la panne';
    await writeContent(content, dataset);
    assert.ok((await importContent(direct, content)).ok);
    await sleep(2 * timeoutMs);
    assert.equal((await readyz()).revision, 1, 'nothing can be loaded through a frozen path');

    relay.thaw();
    assert.ok(await until(async () => (await readyz()).revision === 2, 15_000), 'the committed import is loaded');
    assert.equal((await readyz()).store.reachable, true);
    assert.ok(directory.current.model.tools.some((x) => x.name === 'Importé pendant la panne'));
  });

  test('failover: the old connections never answer again; the LISTEN connection is made anew and an import arrives by notification', async (t) => {
    const { relay, url, direct, dataset, content } = await frozenDatabase(t);
    const store = await PostgresStore.connect(url, { queryTimeoutMs: 1000, listenCheckMs: 500 });
    // A poll too slow to matter: only NOTIFY can bring the import in time.
    const directory = await LiveDirectory.open(store, { checkEveryMs: 3_600_000 });
    await directory.start();
    t.after(async () => {
      await directory.stop();
      await store.close();
    });
    await directory.refresh(); // a pool connection exists and goes dead with the others
    const before = relay.openConnections;
    relay.freeze({ existingOnly: true });
    // The LISTEN check (every 0.5 s) times out after 1 s; a new connection follows 1 s later,
    // and its catch-up refresh meets the dead pool connection, which times out and is dropped.
    await until(() => relay.openConnections > before, 8_000);
    await sleep(2_000);
    dataset.tools[0]!.name = 'Annoncé après la bascule';
    await writeContent(content, dataset);
    assert.ok((await importContent(direct, content)).ok);
    assert.ok(await until(() => directory.current.model.revision === 2, 10_000), 'the import is loaded through a new connection');
    assert.ok(directory.current.model.tools.some((x) => x.name === 'Annoncé après la bascule'));
    assert.equal(directory.storeReachable, true);
  });

  test('SIGTERM while PostgreSQL is frozen exits 0 promptly', async (t) => {
    const { relay, url } = await frozenDatabase(t);
    const server = await startServer(t, { DATABASE_URL: url, DATABASE_TIMEOUT_MS: '1000', REVISION_CHECK_MS: '200', SHUTDOWN_GRACE_MS: '10000', RATE_LIMIT_MAX: '0' });
    assert.equal((await send(server.port, '/readyz')).status, 200);
    relay.freeze();
    // Long enough for revision checks to be stuck on the frozen connections, and some to time out.
    await sleep(2_500);
    const started = Date.now();
    const { code } = await server.stop('SIGTERM');
    const tookMs = Date.now() - started;
    assert.equal(code, 0, server.stderr());
    // The grace period is 10 s: a shutdown that waits on the frozen peer would use it all and exit 1.
    assert.ok(tookMs < 5_000, `shutdown took ${tookMs} ms`);
  });
});
