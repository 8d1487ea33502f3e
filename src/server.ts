/**
 * The process: configuration, store, live data, limiter, HTTP listener, and a graceful
 * shutdown on SIGTERM/SIGINT (stop accepting, /readyz 503, drain, close idle keep-alive
 * sockets, exit 0).
 */
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { describeNotes, describeProblems, describeReport, importContent } from './content/import-content.js';
import { prepareDocs } from './http/routes/docs.js';
import { LiveDirectory } from './live-directory.js';
import { createLimiter } from './rate-limit/create-limiter.js';
import { drainAndClose } from './shutdown.js';
import { openStore } from './store/open-store.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel });

  const store = await openStore(config.databaseUrl, { timeoutMs: config.databaseTimeoutMs });
  await store.migrate();
  log.info({ engine: store.engine, driver: store.driver, node: process.version }, 'store opened');
  if ((await store.revision()) === 0) {
    // A fresh clone: fill the database from the bundled content before serving.
    log.info({ content: config.contentDir }, 'empty database: importing the bundled content');
    const outcome = await importContent(store, config.contentDir);
    if (!outcome.ok) {
      process.stderr.write(`The bundled content is invalid; nothing was imported:\n${describeProblems(outcome.problems)}\n`);
      process.exit(1);
    }
    if (outcome.notes.length > 0) log.warn(describeNotes(outcome.notes));
    if (outcome.report) log.info(describeReport(outcome.report));
  }

  const directory = await LiveDirectory.open(store, {
    checkEveryMs: config.revisionCheckMs,
    notifyJitterMs: config.reloadJitterMs,
    // A snapshot is a handful of queries, each bounded by the database timeout.
    refreshTimeoutMs: 10 * config.databaseTimeoutMs,
    log,
  });
  await directory.start();
  const limiter = await createLimiter(config, log);
  const pageLimiter = await createLimiter(config, log, 'pages');
  // What /readyz does not publish (versions, backends) is said here, once, for the operator.
  log.info({ rate_limiter: limiter?.backend ?? 'off', max: config.rateLimit.max, window_ms: config.rateLimit.windowMs }, 'rate limiter ready');
  log.info({ rate_limiter: pageLimiter?.backend ?? 'off', max: config.pageRateLimit.max, window_ms: config.pageRateLimit.windowMs }, 'page rate limiter ready');
  const lifecycle = { shuttingDown: false };
  const app = await buildApp({ config, directory, limiter, pageLimiter, lifecycle });
  await app.listen({ port: config.port, host: config.host });
  // The reference page and its compressed bundle, made now rather than for the first visitor.
  prepareDocs().catch((err: unknown) => app.log.error({ err }, 'the /docs page could not be prepared; it will be tried again on request'));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.warn('drain took too long; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    // Connections still open near the end of the grace period are cut, leaving time to close
    // the store and the limiter: a client must not turn a clean stop into exit 1.
    await drainAndClose(app, lifecycle, { deadlineMs: config.shutdownGraceMs - Math.min(2_000, config.shutdownGraceMs / 5) });
    await directory.stop();
    await limiter?.close();
    await pageLimiter?.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
