/**
 * What the publishing commands (check-links, screenshots) share: which content folder they
 * work on, that it is valid before they touch it, and their numeric options.
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../config.js';
import type { ToolRecord } from '../domain.js';
import { formatProblem } from '../content/content-problems.js';
import { loadContent } from '../content/load-content.js';

export class UsageError extends Error {}

export type PublishingContent =
  | { ok: true; dir: string; tools: ToolRecord[]; toolFile: (slug: string) => string }
  | { ok: false; code: 2 | 3; message: string };

/**
 * The folder named on the command line, else $CONTENT_DIR, else the project's content/.
 * Only valid content is worked on: writing into a folder `npm run import` refuses would
 * leave the publisher two problems instead of one.
 */
export async function loadPublishingContent(argument: string | undefined, slugs: string[] | undefined): Promise<PublishingContent> {
  const dir = contentFolder(argument);
  const loaded = await loadContent(dir);
  if (!loaded.ok) {
    return { ok: false, code: 3, message: `The content in ${dir} is not valid (${loaded.problems.length} problem(s)); fix it first (npm run import -- --dry-run):\n${loaded.problems.map(formatProblem).join('\n')}` };
  }
  let tools = loaded.dataset.tools;
  if (tools.length === 0) return { ok: false, code: 3, message: `No tool in ${path.join(dir, 'tools')}: is ${dir} a content folder?` };
  if (slugs && slugs.length > 0) {
    const known = new Set(tools.map((t) => t.slug));
    const unknown = slugs.filter((s) => !known.has(s));
    if (unknown.length > 0) return { ok: false, code: 2, message: `--slug: no tool ${unknown.map((s) => `"${s}"`).join(', ')} in ${path.join(dir, 'tools')}` };
    const wanted = new Set(slugs);
    tools = tools.filter((t) => wanted.has(t.slug));
  }
  return { ok: true, dir, tools, toolFile: (slug) => path.join(dir, 'tools', `${slug}.yaml`) };
}

/**
 * The content folder every command works on: the one named, else $CONTENT_DIR (as for the
 * server, so that an operator who set it never loads the bundled content over the live data
 * by running a command), else the project's content/.
 */
export function contentFolder(argument: string | undefined): string {
  return path.resolve(argument ?? (process.env.CONTENT_DIR?.trim() || path.join(PROJECT_ROOT, 'content')));
}

/** A whole number option from `min` to `max`, or its default. */
export function positiveInteger(raw: string | undefined, name: string, fallback: number, max: number, min = 1): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return Number(raw);
}

/**
 * A command's arguments: `parse` reads them (node:util parseArgs) and returns
 * whether help was asked and how to check the rest. Help goes to stdout (exit 0); an unknown
 * option or a refused value goes to stderr with the usage (exit 2). Returns the checked
 * arguments, or the exit code.
 */
export function readCommandLine<R>(usage: string, parse: () => { help: boolean | undefined; check: () => R }): R | number {
  try {
    const { help, check } = parse();
    if (help) {
      process.stdout.write(`${usage}\n`);
      return 0;
    }
    return check();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${usage}\n`);
    return 2;
  }
}

/** The options both publishing commands take (parseArgs' shape). */
export const SHARED_OPTIONS = {
  slug: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  'allow-address': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The help text of --allow-address, the same in both commands. */
export const ALLOW_ADDRESS_HELP = `  --allow-address ADDRESS[:PORT]
                      fetch this loopback or private address all the same (repeatable;
                      e.g. 127.0.0.1:8443 for a local test server). Without it, only public
                      addresses are fetched, for the first URL and every redirect`;

/** The content folder argument, if any: one at most. */
export function contentFolderArgument(positionals: string[]): string | undefined {
  if (positionals.length > 1) throw new UsageError(`one content folder at most (got ${positionals.join(', ')})`);
  return positionals[0];
}
