/**
 * Headless Chromium for the browser tests (Debian's `chromium`, driven by playwright-core):
 * the app listening on 127.0.0.1, and pages whose requests leaving 127.0.0.1 are refused and
 * listed with their script errors and CSP violations. Without Chromium the tests are skipped,
 * except under CI, where they fail.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Dataset } from '../../src/domain.js';
import { buildTestApp } from './build-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve('test-output');
const missing = existsSync(CHROMIUM) ? null : `Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
export const skipWithoutChromium = missing !== null && !process.env.CI ? `${missing}: browser tests skipped` : false;

/** The test app listening on a free port of 127.0.0.1; its base URL. */
export async function serve(t: TestContext, env: Record<string, string> = { RATE_LIMIT_MAX: '60' }, dataset?: Dataset): Promise<string> {
  const built = await buildTestApp(t, { env, ...(dataset === undefined ? {} : { dataset }) });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

export async function launch(t: TestContext): Promise<Browser> {
  assert.equal(missing, null, `${missing}; CI must install it (.ci/run)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  t.after(() => browser.close());
  return browser;
}

/** A page whose every request is recorded; those leaving 127.0.0.1 are refused and listed. */
export async function watchedPage(owner: Browser | BrowserContext) {
  const page = await owner.newPage();
  const requests: string[] = [];
  const offsite: string[] = [];
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    requests.push(url.href);
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    offsite.push(url.href);
    return route.abort();
  });
  return { page, requests, offsite, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: false });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it stands (it runs in the page: JavaScript must be on;
 * the HTML it would read without is the same), as `id: targets` lines; by default the serious
 * and critical ones, with `every` all of them.
 */
export async function axeViolations(page: Page, every = false): Promise<string[]> {
  await page.evaluate(AXE);
  const result = (await page.evaluate(() => (globalThis as unknown as { axe: { run: (o: object) => Promise<unknown> } }).axe.run({ resultTypes: ['violations'] }))) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => every || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
