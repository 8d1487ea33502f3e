#!/usr/bin/env node
/**
 * npm run content:check -- [--content DIR] [--strict]
 *
 * Validates the content folder as the import does, without a database, and prints how much
 * of the school facts is known. Exit codes: 0 valid, 1 invalid content (each problem named by
 * file, record and field), 2 bad usage, 4 valid but below the coverage targets (--strict).
 */
import { parseArgs } from 'node:util';
import { formatProblem } from '../content/content-problems.js';
import { loadContent } from '../content/load-content.js';
import { contentFolder, readCommandLine } from '../publishing/content-dir.js';
import { coverageMet, formatCoverage, schoolCoverage } from '../school/coverage.js';

const USAGE = `Usage: npm run content:check -- [options]

Checks the directory's content files (as npm run import does, without touching a
database) and prints how much of the school facts is known.

Options:
  --content DIR   the content folder (default: $CONTENT_DIR, else content/)
  --strict        exit 4 when a coverage figure is below its target
  -h, --help      show this help

Exit codes: 0 valid, 1 invalid content, 2 bad usage, 4 below target (--strict).`;

async function main(): Promise<number> {
  const args = readCommandLine(USAGE, () => {
    const { values } = parseArgs({ options: { content: { type: 'string' }, strict: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } }, strict: true });
    return { help: values.help, check: () => values };
  });
  if (typeof args === 'number') return args;
  const dir = contentFolder(args.content);
  const result = await loadContent(dir);
  if (!result.ok) {
    process.stderr.write(`${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${dir}:\n`);
    for (const p of result.problems) process.stderr.write(`  ${formatProblem(p)}\n`);
    return 1;
  }
  const { tools } = result.dataset;
  const published = tools.filter((t) => t.status === 'published').length;
  process.stdout.write(`${result.files} files valid: ${tools.length} tools (${published} published), ${result.dataset.collections.length} collections.\n`);
  const lines = schoolCoverage(tools);
  process.stdout.write(`${formatCoverage(lines)}\n`);
  // An English passage per published tool (content/search-english.yaml): what English queries find it by.
  const english = result.dataset.searchVocabulary.english;
  const without = tools.filter((t) => t.status === 'published' && english[t.slug] === undefined).map((t) => t.slug);
  const missing = without.length === 0 ? '' : `; none for ${without.slice(0, 10).join(', ')}${without.length > 10 ? ` and ${without.length - 10} more` : ''}`;
  process.stdout.write(`English passages for the search (search-english.yaml): ${published - without.length} / ${published} published tools${missing}\n`);
  return args.strict && !coverageMet(lines) ? 4 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`content:check failed: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
