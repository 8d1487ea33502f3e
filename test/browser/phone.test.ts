/**
 * The catalogue on a phone (issue « Catalogue II », point 1), in headless Chromium with and
 * without JavaScript: on a 360 px screen the results of a search come right after the search
 * box, the filters folded behind one line that says how many are active; on a wide screen the
 * filters stay in view beside the results. axe-core finds no serious or critical violation.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { axeViolations, launch, SCREENSHOTS, serve, skipWithoutChromium, watchedPage } from '../helpers/browser.js';

for (const javaScript of [true, false]) {
  test(`browser › /outils on a 360 px phone ${javaScript ? 'with' : 'without'} JavaScript: results in the first screen, filters folded with their count; open beside the results at 1280 px`, { skip: skipWithoutChromium, timeout: 90_000 }, async (t) => {
    const base = await serve(t, { RATE_LIMIT_MAX: '0' });
    const browser = await launch(t);
    const phone = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width: 360, height: 740 } });
    t.after(() => phone.close());
    const { page, problems } = await watchedPage(phone);
    await page.goto(`${base}/outils?q=quiz&level=college`);
    const summary = page.locator('details.fold > summary');
    assert.equal((await summary.textContent())?.trim(), 'Filtres (1 actif)');
    const top = await page.evaluate(() => document.querySelector('#resultats .cards')!.getBoundingClientRect().top);
    assert.ok(top < 740, `the first results start at ${top} px, within the first screen`);
    assert.equal(await page.getByLabel('Niveau', { exact: true }).isVisible(), false, 'the filters are folded');
    await summary.click();
    assert.equal(await page.getByLabel('Niveau', { exact: true }).isVisible(), true, 'one tap opens them');
    if (javaScript) {
      assert.deepEqual(await axeViolations(page), []);
    }
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `outils-phone-${javaScript ? 'js' : 'nojs'}.png`) });

    const wide = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width: 1280, height: 800 } });
    t.after(() => wide.close());
    const desk = await wide.newPage();
    await desk.goto(`${base}/outils?q=quiz&level=college`);
    assert.equal(await desk.getByLabel('Niveau', { exact: true }).isVisible(), true, 'the filters are in view beside the results');
    await desk.screenshot({ path: path.join(SCREENSHOTS, `outils-desk-${javaScript ? 'js' : 'nojs'}.png`) });
    assert.deepEqual(problems, []);
  });
}

test('browser › the home page on a 360 px phone: the search box is in the first screen', { skip: skipWithoutChromium, timeout: 60_000 }, async (t) => {
  const base = await serve(t, { RATE_LIMIT_MAX: '0' });
  const browser = await launch(t);
  const phone = await browser.newContext({ viewport: { width: 360, height: 640 } });
  t.after(() => phone.close());
  const page = await phone.newPage();
  await page.goto(`${base}/`);
  const box = await page.getByLabel('Rechercher un outil ou décrire un besoin').boundingBox();
  assert.ok(box !== null && box.y + box.height <= 640, `the search box ends at ${box && box.y + box.height} px`);
});
