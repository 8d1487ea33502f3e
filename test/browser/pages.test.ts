/**
 * /docs and / in headless Chromium (Debian's `chromium`, driven by playwright-core), on a
 * listening server: the reference lists the tool endpoints and its "try it" gets a 200 with
 * results for GET /tools?q=quiz; every request the pages make is recorded, and any that
 * leaves 127.0.0.1 fails the test (and is refused, so the page is proven to work offline);
 * a CSP violation or a script error fails it too. Screenshots go to test-output/ (ignored
 * by git). Without Chromium the test is skipped, except under CI, where it fails.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { API, buildTestApp } from '../helpers/build-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.resolve('test-output');
const missing = existsSync(CHROMIUM) ? null : `Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
const skip = missing !== null && !process.env.CI ? `${missing}: browser tests skipped` : false;

async function serve(t: TestContext) {
  const built = await buildTestApp(t, { env: { RATE_LIMIT_MAX: '60' } });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

async function launch(t: TestContext): Promise<Browser> {
  assert.equal(missing, null, `${missing}; CI must install it (.ci/run)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  t.after(() => browser.close());
  return browser;
}

/** A page whose every request is recorded; those leaving 127.0.0.1 are refused and listed. */
async function watchedPage(browser: Browser) {
  const page = await browser.newPage();
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

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: false });
}

test('browser › /docs lists the tool endpoints, "try it" on GET /tools?q=quiz gets 200 with results, nothing leaves 127.0.0.1', { skip, timeout: 120_000 }, async (t) => {
  const base = await serve(t);
  const browser = await launch(t);
  const { page, requests, offsite, problems } = await watchedPage(browser);
  await page.goto(`${base}/docs`);

  await page.getByText('List published tools').first().waitFor({ timeout: 30_000 });
  await page.getByRole('link', { name: 'get /api/v1/directory/tools', exact: true }).first().waitFor();
  await page.getByRole('link', { name: 'get /api/v1/directory/tools/{slug}', exact: true }).first().waitFor();
  assert.equal(await page.getByRole('link', { name: 'Open API Client' }).count(), 0, 'no button sending the document to Scalar\'s hosted client');

  await page.getByRole('button', { name: /Test Request.*get \/api\/v1\/directory\/tools\)/ }).first().click();
  const client = page.getByRole('dialog', { name: 'API Client' });
  await client.waitFor();
  // Only q: the examples Scalar pre-fills for updated_since and facets are switched off.
  for (const parameter of ['updated_since', 'facets', 'page', 'per_page']) {
    const box = client.getByRole('checkbox', { name: `Include ${parameter} in request` });
    if (await box.isChecked()) await box.click();
  }
  const q = client.getByRole('row', { name: /Include q in request/ });
  if (!(await q.getByRole('checkbox').isChecked())) await q.getByRole('checkbox').click();
  await q.getByRole('combobox', { name: 'Value' }).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('quiz');

  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === `${API}/tools` && r.request().method() === 'GET'),
    client.getByRole('button', { name: 'Send get request to /api/v1/directory/tools' }).click(),
  ]);
  assert.equal(new URL(response.url()).search, '?q=quiz');
  assert.equal(response.status(), 200);
  const body = (await response.json()) as { data: Array<{ slug: string }>; meta: { total: number } };
  assert.ok(body.data.length > 0, 'results for quiz');
  await client.getByText('200', { exact: false }).first().waitFor();
  await client.getByText(body.data[0]!.slug).first().waitFor();
  await screenshot(page, 'docs.png');

  assert.deepEqual(offsite, [], 'requests that left 127.0.0.1');
  assert.ok(requests.some((u) => /\/assets\/scalar\.[\w-]{16}\.js$/.test(u)), 'the bundle came from us');
  assert.ok(requests.some((u) => u.endsWith(`${API}/openapi.json`)));
  assert.deepEqual(problems, [], 'no CSP violation, no script error');
});

test('browser › / shows the counts and the links, loads only our stylesheet, nothing leaves 127.0.0.1', { skip, timeout: 60_000 }, async (t) => {
  const base = await serve(t);
  const browser = await launch(t);
  const { page, requests, offsite, problems } = await watchedPage(browser);
  const response = await page.goto(`${base}/`);
  assert.equal(response?.status(), 200);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const tools = (await (await fetch(`${base}${API}/tools?per_page=1`)).json()).meta.total as number;
  assert.equal(await page.locator('dl.counts dt', { hasText: 'outils publiés' }).locator('xpath=following-sibling::dd').textContent(), String(tools));
  const stylesheetApplied = await page.evaluate(() => getComputedStyle(document.querySelector('dl.counts')!).display);
  assert.equal(stylesheetApplied, 'flex', 'the stylesheet loaded under the CSP');
  await page.getByRole('link', { name: 'Référence interactive de l’API' }).click();
  await page.waitForURL(`${base}/docs`);
  await page.getByText('List published tools').first().waitFor({ timeout: 30_000 });
  await page.goBack();
  await page.getByRole('heading', { level: 1 }).waitFor();
  await screenshot(page, 'home.png');
  assert.deepEqual(offsite, [], 'requests that left 127.0.0.1');
  assert.ok(requests.some((u) => /\/assets\/home\.[\w-]{16}\.css$/.test(u)));
  assert.deepEqual(problems, [], 'no CSP violation, no script error');
});
