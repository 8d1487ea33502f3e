#!/usr/bin/env node
/**
 * npm run import -- [--content DIR] [--database URL] [--dry-run]
 *
 * Validates the content folder and loads it into the database in one transaction. On any
 * invalid record it names the file, record and field, exits 1 and leaves the database as it
 * was. A running server picks up the new revision by itself.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../config.js';
import { describeNotes, describeProblems, describeReport, importContent } from '../content/import-content.js';
import { openStore } from '../store/open-store.js';
import { contentFolder, readCommandLine } from '../publishing/content-dir.js';

const USAGE = `Usage: npm run import -- [options]

Validates the directory's content files and loads them into the database in one
transaction: all of it, or nothing.

Options:
  --content DIR      the content folder (default: $CONTENT_DIR, as for the server,
                     else content/ in the project)
  --database URL     a SQLite file path or postgres:// URL (default: $DATABASE_URL,
                     else data/directory.sqlite in the project)
  --dry-run          validate only; do not touch the database
  -h, --help         show this help

Exit codes: 0 imported (or nothing to change), 1 invalid content, 2 bad usage,
3 the database could not be reached or written.`;

async function main(): Promise<number> {
  const args = readCommandLine(USAGE, () => {
    const { values } = parseArgs({
      options: {
        content: { type: 'string' },
        database: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    return { help: values.help, check: () => values };
  });
  if (typeof args === 'number') return args;
  const contentDir = contentFolder(args.content);
  const databaseUrl = args.database ?? (process.env.DATABASE_URL?.trim() || path.join(PROJECT_ROOT, 'data', 'directory.sqlite'));

  let store;
  try {
    store = await openStore(databaseUrl);
    await store.migrate();
  } catch (err) {
    process.stderr.write(`Cannot open the database (${redact(databaseUrl)}): ${(err as Error).message}\n`);
    await store?.close().catch(() => {});
    return 3;
  }
  try {
    process.stdout.write(`Content: ${contentDir}\n`);
    const outcome = await importContent(store, contentDir, args['dry-run']);
    if (!outcome.ok) {
      process.stderr.write(`Import refused: ${outcome.problems.length} problem(s) in ${contentDir}. The database was not changed.\n${describeProblems(outcome.problems)}\n`);
      return 1;
    }
    if (outcome.notes.length > 0) process.stdout.write(`${describeNotes(outcome.notes)}\n`);
    if (outcome.report === null) {
      process.stdout.write(`Content is valid (${outcome.files} files). Dry run: the database was not changed.\n`);
    } else {
      process.stdout.write(`${describeReport(outcome.report)}\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`Import failed, nothing was changed: ${(err as Error).message}\n`);
    return 3;
  } finally {
    await store.close().catch(() => {});
  }
}

/** Never print a database password. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

process.exitCode = await main();
