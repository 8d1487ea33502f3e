/**
 * Comparing tools and the tool page in headless Chromium (issue « Catalogue II », points 6 and
 * 7), with and without JavaScript, at 360 and 1280 px: from the results, two boxes ticked and
 * « Comparer les outils cochés » open /comparer with a column per tool; ticking a box is no
 * filter (the list is not fetched again); the table scrolls inside its region on a phone, the
 * page itself never wider than the screen; the tool page shows « Pour vos élèves » before the
 * facts and the description, and its similar tools can be ticked and compared. axe-core finds
 * no serious or critical violation (with JavaScript on: it runs in the page). Screenshots go to test-output/.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, launch, screenshot, serve, skipWithoutChromium, watchedPage } from '../helpers/browser.js';


/** axe-core runs in the page: with JavaScript off it cannot, and the HTML it would read is the same. */
async function axe(page: Page, name: string, javaScript: boolean): Promise<void> {
  if (!javaScript) return;
  assert.deepEqual(await axeViolations(page), [], `axe on ${name}`);
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

for (const javaScript of [true, false]) {
  const js = javaScript ? 'js' : 'nojs';
  for (const width of [360, 1280]) {
    test(`browser › compare ${javaScript ? 'with' : 'without'} JavaScript at ${width} px: two boxes ticked in the results, a column per tool; the tool page leads with « Pour vos élèves »`, { skip: skipWithoutChromium, timeout: 120_000 }, async (t) => {
      const base = await serve(t, { RATE_LIMIT_MAX: '0' });
      const browser = await launch(t);
      const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width, height: width < 600 ? 740 : 900 } });
      t.after(() => context.close());
      const { page, requests, offsite, problems } = await watchedPage(context);

      await page.goto(`${base}/outils?q=quiz`);
      await page.getByLabel('Comparer Quizzy').check();
      await page.getByLabel('Comparer Atelier').check();
      assert.equal(await page.getByLabel('Comparer Quizzy').isChecked(), true);
      await page.getByRole('button', { name: 'Comparer les outils cochés' }).click();
      await page.waitForURL(/\/comparer\?/);
      assert.equal(requests.filter((u) => new URL(u).pathname === '/outils').length, 1, 'ticking a box fetched no list');
      const url = new URL(page.url());
      assert.deepEqual(url.searchParams.getAll('outils').sort(), ['atelier-quiz', 'quizzy']);
      await page.getByRole('heading', { level: 1, name: /^Comparer / }).waitFor();
      const columns = page.locator('table.compare thead th[scope=col]');
      assert.equal(await columns.count(), 2);
      await page.getByRole('rowheader', { name: 'Pour vos élèves' }).waitFor();
      assert.ok((await pageWidth(page)) <= width, `/comparer is ${await pageWidth(page)} px wide at ${width} px`);
      // The table's region scrolls by keyboard when wider than the screen.
      assert.equal(await page.locator('.table-scroll').getAttribute('tabindex'), '0');
      await axe(page, `/comparer at ${width}`, javaScript);
      await screenshot(page, `compare-${width}-${js}.png`);
      // Four columns still fit the page (the table scrolls inside its region).
      await page.goto(`${base}/comparer?outils=quizzy,eau-vive,atelier-quiz,quiz-master`);
      assert.equal(await columns.count(), 4);
      assert.ok((await pageWidth(page)) <= width, `four columns: ${await pageWidth(page)} px wide at ${width} px`);
      await screenshot(page, `compare-4-${width}-${js}.png`);

      // A list it cannot compare: a French page that says why.
      const bad = await page.goto(`${base}/comparer?outils=quizzy`);
      assert.equal(bad?.status(), 400);
      await page.getByRole('heading', { level: 1, name: 'Comparaison impossible' }).waitFor();
      await axe(page, '/comparer refused', javaScript);

      // The tool page: « Pour vos élèves », then the facts, then the description.
      await page.goto(`${base}/outils/eau-vive`);
      const top = async (name: string) => (await page.getByRole('heading', { level: 2, name, exact: true }).boundingBox())!.y;
      const [pupils, facts, about] = [await top('Pour vos élèves'), await top('Les faits à vérifier'), await top('Présentation')];
      assert.ok(pupils < facts && facts < about, `pupils ${pupils}, facts ${facts}, description ${about}`);
      if (width < 600) assert.ok(pupils < 740 * 1.5, `« Pour vos élèves » starts at ${pupils} px`);
      assert.ok((await pageWidth(page)) <= width, `the tool page is ${await pageWidth(page)} px wide at ${width} px`);
      await axe(page, `tool page at ${width}`, javaScript);
      await screenshot(page, `tool-${width}-${js}.png`);
      // A reason from a public text leads to the rule on the page.
      await page.getByRole('link', { name: /^Règle : Cadre d/ }).first().click();
      assert.match(page.url(), /#regle-framework-genai-feature$/);
      // Its similar tools, ticked and compared with it.
      await page.locator('form.compare-form input[type=checkbox]').first().check();
      await page.getByRole('button', { name: 'Comparer Eau Vive avec les outils cochés' }).click();
      await page.waitForURL(/\/comparer\?/);
      assert.equal(new URL(page.url()).searchParams.getAll('outils')[0], 'eau-vive');
      assert.equal(await columns.count(), 2);

      assert.deepEqual(offsite, [], 'no request leaves 127.0.0.1');
      assert.deepEqual(problems.filter((p) => !/status of 400/.test(p)), [], 'no script error or CSP violation');
    });
  }
}
