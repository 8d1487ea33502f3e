/**
 * The catalogue in headless Chromium (Debian's `chromium`, driven by playwright-core), with
 * and without JavaScript: search with a typing error, apply two filters and remove one, open
 * a tool, follow a collection, go back. axe-core finds no serious or critical violation on
 * the home, a search with filters, a tool, a collection and the 404; nothing overflows a
 * 320 px screen; no request leaves 127.0.0.1; no CSP violation or script error.
 * Screenshots go to test-output/. Without Chromium the test is skipped, except under CI.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, launch, SCREENSHOTS, serve, skipWithoutChromium, watchedPage } from '../helpers/browser.js';

const skip = skipWithoutChromium;

async function axe(page: Page, name: string): Promise<void> {
  assert.deepEqual(await axeViolations(page), [], `axe on ${name}`);
}

async function noOverflowAt320(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 320, height: 700 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 320, `${name} is ${width} px wide at 320 px`);
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `catalogue-${name}-320.png`), fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(SCREENSHOTS, `catalogue-${name}-1280.png`), fullPage: false });
}

for (const javaScript of [true, false]) {
  test(`browser › catalogue ${javaScript ? 'with' : 'without'} JavaScript: search with a typo, two filters then one removed, a tool, a collection, back`, { skip, timeout: 120_000 }, async (t) => {
    const base = await serve(t, { RATE_LIMIT_MAX: '0' });
    const browser = await launch(t);
    const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width: 1280, height: 800 } });
    t.after(() => context.close());
    const { page, offsite, problems } = await watchedPage(context);

    await page.goto(`${base}/`);
    if (javaScript) await axe(page, 'home');
    await noOverflowAt320(page, `home-${javaScript ? 'js' : 'nojs'}`);
    await page.getByLabel('Rechercher un outil ou décrire un besoin').fill('quizy');
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.waitForURL(/\/outils\?q=quizy/);
    await page.getByRole('link', { name: 'Quizzy' }).first().waitFor();

    // Two filters, then one removed.
    await page.goto(`${base}/outils`);
    await page.getByLabel('Niveau', { exact: true }).selectOption('college');
    if (!javaScript) await page.getByRole('button', { name: 'Appliquer les filtres' }).click();
    await page.waitForURL(/level=college/);
    await page.getByLabel('Discipline', { exact: true }).selectOption('svt');
    if (!javaScript) await page.getByRole('button', { name: 'Appliquer les filtres' }).click();
    await page.waitForURL(/subject=svt/);
    await page.getByRole('link', { name: 'Retirer « Discipline : Sciences de la vie et de la Terre »', exact: true }).waitFor();
    if (javaScript) await axe(page, 'search with filters');
    await noOverflowAt320(page, `search-${javaScript ? 'js' : 'nojs'}`);
    await page.getByRole('link', { name: 'Retirer « Niveau : Collège »', exact: true }).click();
    await page.waitForURL((url) => !url.search.includes('level='));
    assert.match(page.url(), /subject=svt/);

    // A tool, then a collection it belongs to, then back.
    await page.goto(`${base}/outils/oeuvre-studio`);
    await page.getByRole('heading', { level: 1, name: 'Œuvre Studio' }).waitFor();
    if (javaScript) await axe(page, 'tool');
    await noOverflowAt320(page, `tool-${javaScript ? 'js' : 'nojs'}`);
    await page.getByRole('link', { name: 'Professeur de lettres' }).click();
    await page.getByRole('heading', { level: 1, name: 'Professeur de lettres' }).waitFor();
    if (javaScript) await axe(page, 'collection');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Œuvre Studio' }).waitFor();

    await page.goto(`${base}/outils/inconnu`);
    await page.getByRole('heading', { level: 1, name: 'Page introuvable' }).waitFor();
    if (javaScript) await axe(page, '404');

    assert.deepEqual(offsite, [], 'no request leaves 127.0.0.1');
    assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), [], 'no script error or CSP violation');
  });
}
