#!/usr/bin/env node
/**
 * npm run check-links -- [DIR] [--json] [--write] [--slug SLUG]…
 *
 * Fetches every tool's website, pricing and education URL (publishing/link-checker.ts),
 * prints what each answered, and with --write records the result in the content files.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { LINK_FIELDS, type LinkField, type LinkStatus, type ToolRecord } from '../domain.js';
import { setFields, writeFileAtomically } from '../content/tool-file-edits.js';
import { DEFAULT_LINK_CHECK, LinkChecker, countStatuses, worstStatus, type LinkCheckOptions, type UrlCheck } from '../publishing/link-checker.js';
import { progressBar } from '../publishing/progress.js';
import { AddressPolicy } from '../publishing/address-policy.js';
import { ALLOW_ADDRESS_HELP, contentFolderArgument, loadPublishingContent, positiveInteger, readCommandLine, SHARED_OPTIONS } from '../publishing/content-dir.js';

const USAGE = `Usage: npm run check-links -- [DIR] [options]

Checks every tool's website_url, pricing.url and education_program.url with real HTTP
requests (HEAD, then GET if refused; redirects followed; 429 and 503 retried after
Retry-After) and prints what each answered.

  DIR                 the content folder (default: $CONTENT_DIR, else content/ in the project)
  --slug SLUG         check this tool only (repeatable)
  --json              print the report as JSON instead of a table
  --write             record links_checked_at, link_status and, for a redirect, where it
                      ended (link_redirects: a suggestion; website_url is never changed)
                      in each checked tool's file, keeping its comments and layout
  --timeout SECONDS   time allowed for one answer (default ${DEFAULT_LINK_CHECK.timeoutMs / 1000})
  --concurrency N     requests in flight at once (default ${DEFAULT_LINK_CHECK.concurrency})
  --per-host N        requests in flight to one host (default ${DEFAULT_LINK_CHECK.perHost})
  --retries N         retries after a 429 or 503 (default ${DEFAULT_LINK_CHECK.retries})
${ALLOW_ADDRESS_HELP}
  -h, --help          show this help

Statuses: ok; redirected (answers from another address); broken (an HTTP error, a
redirect that goes nowhere, or a link or redirect to an address that is not public, which
is never fetched); unreachable (no HTTP answer: DNS, connection, TLS, timeout).
A tool's status is the worst of its URLs.

Exit codes: 0 nothing broken or unreachable, 1 at least one link broken or unreachable,
2 bad usage, 3 the content could not be read or is invalid, or a file could not be written.`;

interface ToolReport {
  slug: string;
  file: string;
  status: LinkStatus;
  links: Array<{ field: LinkField } & UrlCheck>;
}

async function main(): Promise<number> {
  const command = readCommandLine(USAGE, () => {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: {
        ...SHARED_OPTIONS,
        json: { type: 'boolean', default: false },
        write: { type: 'boolean', default: false },
        'per-host': { type: 'string' },
        retries: { type: 'string' },
      },
      strict: true,
    });
    return {
      help: values.help,
      check: () => {
        const folder = contentFolderArgument(positionals);
        const options: LinkCheckOptions = {
          ...DEFAULT_LINK_CHECK,
          timeoutMs: positiveInteger(values.timeout, '--timeout', DEFAULT_LINK_CHECK.timeoutMs / 1000, 600) * 1000,
          concurrency: positiveInteger(values.concurrency, '--concurrency', DEFAULT_LINK_CHECK.concurrency, 256),
          perHost: positiveInteger(values['per-host'], '--per-host', DEFAULT_LINK_CHECK.perHost, 64),
          retries: positiveInteger(values.retries, '--retries', DEFAULT_LINK_CHECK.retries, 10, 0),
          userAgent: linkCheckerUserAgent(),
          addresses: new AddressPolicy(values['allow-address'] ?? []),
        };
        return { values, folder, options };
      },
    };
  });
  if (typeof command === 'number') return command;
  const { values, folder, options } = command;

  const content = await loadPublishingContent(folder, values.slug);
  if (!content.ok) {
    process.stderr.write(`${content.message}\n`);
    return content.code;
  }
  const { tools, toolFile } = content;

  const checker = new LinkChecker(options);
  const jobs = tools.flatMap((tool) => linksOf(tool).map((link) => ({ tool, ...link })));
  const progress = values.json ? progressBar(0, '') : progressBar(jobs.length, 'URLs');
  const checkedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const results = await Promise.all(
    jobs.map(async (job) => {
      const check = await checker.check(job.url);
      progress.tick(job.tool.slug);
      return { slug: job.tool.slug, field: job.field, ...check };
    }),
  );
  progress.done();

  const reports: ToolReport[] = tools.map((tool) => {
    const links = results.filter((r) => r.slug === tool.slug).map(({ slug: _slug, ...link }) => link);
    return { slug: tool.slug, file: path.relative(process.cwd(), toolFile(tool.slug)), status: worstStatus(links.map((l) => l.status)), links };
  });
  const counts = countStatuses(results.map((r) => r.status));
  const failing = counts.broken + counts.unreachable;

  if (values.json) {
    process.stdout.write(`${JSON.stringify({ checked_at: checkedAt, urls: results.length, summary: counts, tools: reports }, null, 2)}\n`);
  } else {
    process.stdout.write(table(reports));
    process.stdout.write(
      `\n${results.length} URL(s) of ${tools.length} tool(s): ${counts.ok} ok, ${counts.redirected} redirected, ${counts.broken} broken, ${counts.unreachable} unreachable.\n`,
    );
  }

  if (values.write) {
    try {
      for (const report of reports) {
        const file = toolFile(report.slug);
        const redirects: Partial<Record<LinkField, string>> = {};
        for (const link of report.links) if (link.status === 'redirected' && link.final_url) redirects[link.field] = link.final_url;
        const text = await readFile(file, 'utf8');
        const edited = setFields(
          text,
          { links_checked_at: checkedAt, link_status: report.status, link_redirects: Object.keys(redirects).length > 0 ? redirects : undefined },
          'last_verified_at',
        );
        if (edited !== text) await writeFileAtomically(file, edited);
      }
    } catch (err) {
      process.stderr.write(`Could not record the results: ${(err as Error).message}\n`);
      return 3;
    }
    process.stderr.write(`Recorded in ${reports.length} file(s). Run \`npm run import\` to publish the result.\n`);
  }
  return failing > 0 ? 1 : 0;
}

/** The URLs of a tool the checker reads, by field. */
function linksOf(tool: ToolRecord): Array<{ field: LinkField; url: string }> {
  const urls: Record<LinkField, string | null> = {
    website_url: tool.website_url,
    'pricing.url': tool.pricing.url,
    'education_program.url': tool.education_program?.url ?? null,
  };
  return LINK_FIELDS.flatMap((field) => (urls[field] ? [{ field, url: urls[field]! }] : []));
}

/** Names the directory and where to read about it (PUBLISHER_URL), as polite crawlers do. */
function linkCheckerUserAgent(): string {
  const publisher = loadConfig(process.env).publisher.url;
  return `annuaire-ia-edu-link-checker/1.0 (${publisher ? `+${publisher}; ` : ''}checks that listed links still work)`;
}

function table(reports: ToolReport[]): string {
  const rows = reports.flatMap((r) =>
    r.links.map((l) => [
      l.status,
      r.slug,
      l.field,
      l.http_status === null ? '-' : String(l.http_status),
      l.status === 'redirected' ? `${l.url} → ${l.final_url}` : l.error ? `${l.url} (${l.error})` : l.url,
    ]),
  );
  const header = ['STATUS', 'TOOL', 'FIELD', 'HTTP', 'URL'];
  const widths = header.slice(0, 4).map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `${cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join('  ')}\n`;
  return line(header) + rows.map(line).join('');
}

process.exitCode = await main();
