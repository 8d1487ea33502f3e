/**
 * Lighthouse (pinned, 12.8.2, desktop preset) on the catalogue's home and a tool page, in Debian's Chromium:
 * accessibility, best practices and SEO at least 95, performance at least 90, and a tool page
 * of at most 50 KB compressed with its stylesheet (logos apart).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
// The desktop preset (no 4× CPU slowdown): on these shared 2-core machines the mobile
// preset's simulated blocking time swung from 130 to 370 ms between runs of the same page.
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { serve, skipWithoutChromium } from '../helpers/browser.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

test('lighthouse › home and tool page: accessibility, best practices, SEO ≥ 95, performance ≥ 90', { skip: skipWithoutChromium, timeout: 240_000 }, async (t) => {
  const base = await serve(t, { RATE_LIMIT_MAX: '0' });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  t.after(() => chrome.kill());
  for (const path of ['/', '/outils/eau-vive']) {
    const result = await lighthouse(`${base}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] }, desktopConfig);
    const categories = result!.lhr.categories;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const failing = Object.values(result!.lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary').map((a) => a.id);
    for (const id of ['accessibility', 'best-practices', 'seo']) assert.ok(score(id) >= 95, `${path} ${id}: ${score(id)} (failing: ${failing.join(', ')})`);
    assert.ok(score('performance') >= 90, `${path} performance: ${score('performance')}`);
  }
  // Weight: the page and its stylesheet, gzip-compressed.
  const html = await (await fetch(`${base}/outils/eau-vive`)).text();
  const css = await (await fetch(`${base}${/href="(\/assets\/site\.[^"]+\.css)"/.exec(html)![1]}`)).text();
  const bytes = gzipSync(html).length + gzipSync(css).length;
  assert.ok(bytes <= 50 * 1024, `tool page with its stylesheet: ${bytes} bytes compressed`);
});
