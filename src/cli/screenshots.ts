#!/usr/bin/env node
/**
 * npm run screenshots -- [DIR] [--all | --slug SLUG…] [--concurrency N]
 *
 * Captures each chosen tool's website (publishing/screenshot-capture.ts), writes the WebP
 * and its variant into content/media/ and records `screenshot` in the tool's file. A site
 * that fails is reported and skipped; no file is ever left half-written.
 */
import { access, constants, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { screenshotVariantFile, type ToolRecord } from '../domain.js';
import { setFields, writeFileAtomically } from '../content/tool-file-edits.js';
import { AddressPolicy } from '../publishing/address-policy.js';
import { ALLOW_ADDRESS_HELP, contentFolderArgument, loadPublishingContent, positiveInteger, readCommandLine, SHARED_OPTIONS, UsageError } from '../publishing/content-dir.js';
import { mapWithConcurrency } from '../publishing/limits.js';
import { progressBar } from '../publishing/progress.js';
import { capturePage, DEFAULT_CAPTURE, DEFAULT_CHROMIUM, encodeScreenshot, launchChromium, VIEWPORT } from '../publishing/screenshot-capture.js';

const USAGE = `Usage: npm run screenshots -- [DIR] [options]

Opens each tool's website_url in headless Chromium, waits for the page to settle, captures
${VIEWPORT.width}×${VIEWPORT.height}, writes a WebP and a 640-wide variant into DIR/media/ (names
fingerprinted by content) and records screenshot: { file, alt, width, height, captured_at }
in the tool's file. By default only the tools without a screenshot.

  DIR                 the content folder (default: $CONTENT_DIR, else content/ in the project)
  --all               capture every tool again
  --slug SLUG         capture this tool (repeatable; with or without a screenshot)
  --concurrency N     pages captured at once (default 2)
  --timeout SECONDS   time allowed for a page to load (default ${DEFAULT_CAPTURE.timeoutMs / 1000})
  --chromium PATH     the browser (default: $CHROMIUM_PATH, else ${DEFAULT_CHROMIUM}: Debian's chromium)
  --browser-arg ARG   one more Chromium switch (repeatable), e.g. --lang=fr-FR (not a
                      proxy: every connection goes through the checking proxy below)
${ALLOW_ADDRESS_HELP}
  -h, --help          show this help

Every connection the page makes (the site, its redirects, what it loads) goes through a
local proxy that checks it first: only public addresses, after DNS resolution, and at most
10 redirects.

Exit codes: 0 every capture recorded, 1 at least one site failed (the others are recorded),
2 bad usage, 3 the content is invalid, the browser is missing or a file could not be written.`;

interface Outcome {
  slug: string;
  ok: boolean;
  detail: string;
}

async function main(): Promise<number> {
  const command = readCommandLine(USAGE, () => {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: {
        ...SHARED_OPTIONS,
        all: { type: 'boolean', default: false },
        chromium: { type: 'string' },
        'browser-arg': { type: 'string', multiple: true },
      },
      strict: true,
    });
    return {
      help: values.help,
      check: () => {
        const folder = contentFolderArgument(positionals);
        if (values.all && values.slug) throw new UsageError('--all and --slug do not go together');
        return {
          values,
          folder,
          concurrency: positiveInteger(values.concurrency, '--concurrency', 2, 16),
          timeoutMs: positiveInteger(values.timeout, '--timeout', DEFAULT_CAPTURE.timeoutMs / 1000, 600) * 1000,
          addresses: new AddressPolicy(values['allow-address'] ?? []),
        };
      },
    };
  });
  if (typeof command === 'number') return command;
  const { values, folder, concurrency, timeoutMs, addresses } = command;

  const content = await loadPublishingContent(folder, values.slug);
  if (!content.ok) {
    process.stderr.write(`${content.message}\n`);
    return content.code;
  }
  const chosen = values.all || values.slug ? content.tools : content.tools.filter((t) => t.screenshot === null);
  if (chosen.length === 0) {
    process.stdout.write('Every tool has a screenshot; nothing to do (--all captures them again).\n');
    return 0;
  }

  const executable = values.chromium ?? (process.env.CHROMIUM_PATH?.trim() || DEFAULT_CHROMIUM);
  try {
    await access(executable, constants.X_OK);
  } catch {
    process.stderr.write(`No Chromium at ${executable}. Install Debian's package (apt-get install chromium) or name the browser with --chromium or CHROMIUM_PATH.\n`);
    return 3;
  }
  let browser;
  try {
    browser = await launchChromium(executable, values['browser-arg'] ?? []);
  } catch (err) {
    process.stderr.write(`Chromium (${executable}) did not start: ${(err as Error).message.split('\n')[0]}\n`);
    return 3;
  }

  const mediaDir = path.join(content.dir, 'media');
  await mkdir(mediaDir, { recursive: true });
  const progress = progressBar(chosen.length, 'sites');
  let writeFailure: Error | null = null;
  let outcomes: Outcome[];
  try {
    outcomes = await mapWithConcurrency(chosen, concurrency, async (tool): Promise<Outcome> => {
      let outcome: Outcome;
      try {
        const png = await capturePage(browser, tool.website_url, { ...DEFAULT_CAPTURE, timeoutMs, addresses });
        const shot = await encodeScreenshot(tool.slug, png);
        try {
          await record(tool, shot, mediaDir, content.toolFile(tool.slug));
        } catch (err) {
          writeFailure ??= err as Error;
          throw err;
        }
        outcome = { slug: tool.slug, ok: true, detail: `media/${shot.file} (${shot.width}×${shot.height}, ${Math.round(shot.webp.length / 1024)} kB)` };
      } catch (err) {
        outcome = { slug: tool.slug, ok: false, detail: `${tool.website_url}: ${(err as Error).message.split('\n')[0]}` };
      }
      progress.tick(tool.slug);
      return outcome;
    });
  } finally {
    progress.done();
    await browser.close().catch(() => {});
  }

  for (const o of outcomes) process.stdout.write(`${o.ok ? 'captured' : 'FAILED  '}  ${o.slug}  ${o.detail}\n`);
  const failed = outcomes.filter((o) => !o.ok).length;
  process.stdout.write(`\n${outcomes.length - failed} captured, ${failed} failed.${outcomes.length - failed > 0 ? ' Run `npm run import` to publish them.' : ''}\n`);
  if (writeFailure) {
    process.stderr.write(`A file could not be written: ${(writeFailure as Error).message}\n`);
    return 3;
  }
  return failed > 0 ? 1 : 0;
}

/**
 * The images first, then the content file that names them, each written whole (temporary
 * file and rename): the content never names an image that is not there. If the content file
 * cannot be written, the new images are removed again. Older captures stay in media/ for
 * caches that still hold their URL.
 */
async function record(tool: ToolRecord, shot: Awaited<ReturnType<typeof encodeScreenshot>>, mediaDir: string, toolFile: string): Promise<void> {
  const files = [
    { name: shot.file, bytes: shot.webp },
    { name: screenshotVariantFile(shot.file), bytes: shot.variant },
  ];
  const created: string[] = [];
  try {
    for (const { name, bytes } of files) {
      const target = path.join(mediaDir, name);
      const existed = await access(target).then(() => true, () => false);
      await writeFileAtomically(target, bytes);
      if (!existed) created.push(target);
    }
    const host = new URL(tool.website_url).host;
    const text = await readFile(toolFile, 'utf8');
    const screenshot = {
      file: shot.file,
      alt: `Capture d’écran du site de ${tool.name} (${host})`.slice(0, 300),
      width: shot.width,
      height: shot.height,
      captured_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    await writeFileAtomically(toolFile, setFields(text, { screenshot }, 'education_program'));
  } catch (err) {
    await Promise.all(created.map((file) => rm(file, { force: true })));
    throw err;
  }
}

process.exitCode = await main();
