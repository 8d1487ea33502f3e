/**
 * /docs and / in headless Chromium (Debian's `chromium`, driven by playwright-core), on a
 * listening server: the reference lists the tool endpoints and its "try it" gets a 200 with
 * results for GET /tools?q=quiz; every request the pages make is recorded, and any that
 * leaves 127.0.0.1 fails the test (and is refused, so the page is proven to work offline);
 * a CSP violation or a script error fails it too. Screenshots go to test-output/ (ignored
 * by git). Without Chromium the test is skipped, except under CI, where it fails.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API } from '../helpers/build-app.js';
import { launch, screenshot, serve, skipWithoutChromium, watchedPage } from '../helpers/browser.js';
import { bundledDataset } from '../helpers/fixture.js';

const skip = skipWithoutChromium;

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
  // Only q: every parameter Scalar pre-fills with its example (updated_since, facets, the
  // school filters…) is switched off.
  const boxes = client.getByRole('checkbox', { name: /^Include (?!q in).* in request$/ });
  for (let k = 0; k < (await boxes.count()); k++) {
    if (await boxes.nth(k).isChecked()) await boxes.nth(k).click();
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

test('browser › /docs: « Test Request » then « Send », untouched, answers 200 with something for every operation of the API, on the bundled directory', { skip, timeout: 300_000 }, async (t) => {
  const base = await serve(t, { RATE_LIMIT_MAX: '0' }, await bundledDataset());
  const browser = await launch(t);
  const { page, problems } = await watchedPage(browser);
  await page.goto(`${base}/docs`);
  await page.getByText('List published tools').first().waitFor({ timeout: 30_000 });
  const doc = (await (await fetch(`${base}${API}/openapi.json`)).json()) as { paths: Record<string, { get?: unknown }> };
  const operations = Object.keys(doc.paths).filter((path) => doc.paths[path]!.get !== undefined && path.startsWith(API) && path !== `${API}/openapi.json`);
  assert.ok(operations.length >= 10, operations.join(', '));
  const sent: string[] = [];
  for (const path of operations) {
    const label = `get ${path}`;
    await page.getByRole('link', { name: label, exact: true }).first().click();
    const escaped = label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    await page.getByRole('button', { name: new RegExp(`Test Request.*${escaped}\\)`) }).first().click();
    const client = page.getByRole('dialog', { name: 'API Client' });
    await client.waitFor();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname.startsWith(path.replace(/\{.*$/, ''))),
      client.getByRole('button', { name: /^Send get request to/ }).click(),
    ]);
    const url = new URL(response.url());
    sent.push(url.pathname + url.search);
    assert.equal(response.status(), 200, `${label}: ${url.pathname}${url.search}`);
    const text = await response.text();
    assert.ok(text.length > 0, `${label} answers a body`);
    if (response.headers()['content-type']?.startsWith('application/json')) {
      const body = JSON.parse(text) as { data?: unknown; items?: unknown[] };
      if (Array.isArray(body.data)) assert.ok(body.data.length > 0, `${label}: ${url.pathname}${url.search} answers data: []`);
      if (Array.isArray(body.items)) assert.ok(body.items.length > 0, `${label} answers an empty feed`);
    }
    await page.keyboard.press('Escape');
    await client.waitFor({ state: 'hidden' });
  }
  // The list of tools: a search that finds something, and no filter switched on with it.
  assert.ok(sent.includes(`${API}/tools?q=quiz`), sent.join('\n'));
  assert.deepEqual(problems, [], 'no CSP violation, no script error');
});

test('browser › /developpeurs shows the counts and the links, loads only our stylesheet, nothing leaves 127.0.0.1', { skip, timeout: 60_000 }, async (t) => {
  const base = await serve(t);
  const browser = await launch(t);
  const { page, requests, offsite, problems } = await watchedPage(browser);
  const response = await page.goto(`${base}/developpeurs`);
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
  await screenshot(page, 'developpeurs.png');
  assert.deepEqual(offsite, [], 'requests that left 127.0.0.1');
  assert.ok(requests.some((u) => /\/assets\/home\.[\w-]{16}\.css$/.test(u)));
  assert.deepEqual(problems, [], 'no CSP violation, no script error');
});
