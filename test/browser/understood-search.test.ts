/**
 * Issue « Search IV », as a teacher on a phone sees it: « quiz gratuit sans compte pour mes
 * CM2 » typed on /outils is read as filters, and the page says so. At 320 px without
 * JavaScript, and at 320 and 1280 px with it: the title names every filter read, nothing is
 * wider than the screen, axe-core finds no violation of any impact (with JavaScript: it runs
 * in the page), and the tools listed are those the API lists for the same filters, each
 * meeting them. Screenshots go to test-output/.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundledDataset } from '../helpers/fixture.js';
import { axeViolations, launch, screenshot, serve, skipWithoutChromium, watchedPage } from '../helpers/browser.js';

const NEED = 'quiz gratuit sans compte pour mes CM2';
const TITLE = 'Outils : Quiz · École élémentaire · élèves de 10 ans · sans compte personnel · gratuit ou freemium';

for (const [width, javaScript] of [[320, false], [320, true], [1280, true]] as const) {
  test(`browser › « ${NEED} » read as filters, at ${width} px ${javaScript ? 'with' : 'without'} JavaScript`, { skip: skipWithoutChromium, timeout: 120_000 }, async (t) => {
    const base = await serve(t, { RATE_LIMIT_MAX: '0', PAGE_RATE_LIMIT_MAX: '0' }, await bundledDataset());
    const browser = await launch(t);
    const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width, height: 720 } });
    t.after(() => context.close());
    const { page, problems } = await watchedPage(context);
    await page.goto(`${base}/outils?q=${encodeURIComponent(NEED)}`);
    assert.ok((await page.title()).startsWith(`${TITLE} · `), await page.title());
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, 'no sideways scroll');
    if (javaScript) assert.deepEqual(await axeViolations(page, true), [], 'axe');
    await screenshot(page, `understood-cm2-${width}${javaScript ? '' : '-nojs'}.png`);

    // The same filters through the API: the page lists exactly its tools, each meeting them.
    const api = (await (await fetch(`${base}/api/v1/directory/tools?q=quiz&level=elementaire&age=10&for_pupils=with_consent,teacher_led,unknown&pupil_account=none,class_code&pricing=free,freemium&per_page=50`)).json()) as {
      data: Array<{ slug: string; name: string; pricing: string; school: { levels: string[]; pupil_account: string } }>;
      meta: { total: number };
    };
    const listed = await page.locator('#resultats .cards > li h3 a').allTextContents();
    assert.deepEqual(listed.map((s) => s.trim()).sort(), api.data.map((tool) => tool.name).sort());
    assert.equal(listed.length, api.meta.total);
    for (const tool of api.data) {
      assert.ok(['free', 'freemium'].includes(tool.pricing), `${tool.name}: ${tool.pricing}`);
      assert.ok(['none', 'class_code'].includes(tool.school.pupil_account), `${tool.name}: ${tool.school.pupil_account}`);
      assert.ok(tool.school.levels.includes('elementaire'), `${tool.name}: ${tool.school.levels}`);
    }
    for (const name of ['Google Forms', 'Kahoot!', 'La Quizinière']) assert.ok(listed.includes(name), `${name} among ${listed.join(', ')}`);
    // The age read of « mes CM2 » is a class's: its chip says the teacher-led tools count too.
    assert.ok(await page.getByRole('link', { name: /Âge : 10 ans, avec l’enseignant/ }).isVisible(), 'the age chip says who uses the tools');
    // The first result is on the phone's first screen, past the search box and the folded filters.
    const first = page.locator('#resultats .cards > li').first();
    const box = await first.boundingBox();
    assert.ok(box !== null && box.y < 720, `first result at y=${box?.y}`);
    assert.deepEqual(problems, []);
  });
}
