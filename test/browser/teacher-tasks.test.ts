/**
 * Four teachers' tasks walked from the home page in headless Chromium, on the bundled
 * directory, in at most two steps each (issue « Catalogue II »): (1) describe the need in the
 * home page's search box and send it, (2) open the first result. Each answer is judged by its
 * facts through the API (not by a slug that content may rename): what the teacher asked is
 * what the tool is, and its page says who may use it. At 360 px without JavaScript (the
 * plainest case), and at 1280 px with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundledDataset } from '../helpers/fixture.js';
import { launch, serve, skipWithoutChromium, watchedPage } from '../helpers/browser.js';

interface Tool {
  name: string;
  short_description: string;
  category: { slug: string; name: string };
  tags: string[];
  pricing: string;
  school: { levels: string[]; subjects: string[]; pupil_account: string | null; generative_ai: string | null; for_pupils: Array<{ from: number; to: number | null; answer: string }> };
}
const answerAt = (tool: Tool, age: number) => tool.school.for_pupils.find((b) => b.from <= age && (b.to === null || age <= b.to))?.answer;
const says = (tool: Tool, pattern: RegExp) => pattern.test(`${tool.name} ${tool.short_description} ${tool.tags.join(' ')}`.normalize('NFD').replace(/\p{M}/gu, ''));

const TASKS: Array<{ who: string; need: string; fits: (tool: Tool) => string | true }> = [
  {
    who: 'a CM2 teacher: a free quiz tool without pupil accounts',
    need: 'quiz gratuit sans compte pour mes CM2',
    fits: (t) => (!says(t, /quiz|qcm/i) ? 'no quiz' : !['free', 'freemium'].includes(t.pricing) ? `priced ${t.pricing}` : !['none', 'class_code'].includes(t.school.pupil_account ?? '') ? `account ${t.school.pupil_account}` : !['yes', 'with_consent'].includes(answerAt(t, 10) ?? '') ? `at 10: ${answerAt(t, 10)}` : true),
  },
  {
    who: 'a lycée SVT teacher: a molecule viewer',
    need: 'visualiser des molécules en SVT au lycée',
    fits: (t) => (!says(t, /molecul/i) ? 'no molecules' : !t.school.levels.includes('lycee') ? 'not for lycée' : true),
  },
  {
    who: 'a ULIS teacher: text-to-speech',
    need: 'synthèse vocale ULIS',
    fits: (t) => (says(t, /synthese vocale|lecture a voix haute|text-to-speech|lit (le|les|a voix)|voix de synthese/i) ? true : 'no text-to-speech'),
  },
  {
    who: 'a collège teacher: an AI their 4e pupils may use themselves',
    need: 'une IA que mes élèves de 4e peuvent utiliser seuls',
    fits: (t) => (!['core', 'feature'].includes(t.school.generative_ai ?? '') ? `generative AI ${t.school.generative_ai}` : !['yes', 'with_consent'].includes(answerAt(t, 13) ?? '') ? `at 13: ${answerAt(t, 13)}` : true),
  },
];

for (const [width, javaScript] of [[360, false], [1280, true]] as const) {
  test(`browser › four teachers' tasks from the home page in two steps, at ${width} px ${javaScript ? 'with' : 'without'} JavaScript`, { skip: skipWithoutChromium, timeout: 180_000 }, async (t) => {
    const base = await serve(t, { RATE_LIMIT_MAX: '0', PAGE_RATE_LIMIT_MAX: '0' }, await bundledDataset());
    const browser = await launch(t);
    const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width, height: 800 } });
    t.after(() => context.close());
    const { page, problems } = await watchedPage(context);
    for (const task of TASKS) {
      await page.goto(`${base}/`);
      // Step 1: the need, in the home page's search box.
      await page.getByLabel('Rechercher un outil ou décrire un besoin').fill(task.need);
      await Promise.all([page.waitForURL(/\/outils\?/), page.getByLabel('Rechercher un outil ou décrire un besoin').press('Enter')]);
      const first = page.locator('#resultats .cards > li').first().locator('a[href^="/outils/"]').first();
      assert.ok(await first.isVisible(), `${task.who}: a first result in view`);
      // Step 2: the first result.
      await Promise.all([page.waitForURL(/\/outils\/[a-z0-9-]+$/), first.click()]);
      const slug = new URL(page.url()).pathname.split('/').pop()!;
      const tool = (await (await fetch(`${base}/api/v1/directory/tools/${slug}`)).json()).data as Tool;
      assert.equal(task.fits(tool), true, `${task.who}: « ${task.need} » → ${tool.name}`);
      // The tool page says who may use it before anything else.
      assert.ok(await page.getByRole('heading', { name: 'Pour vos élèves' }).isVisible(), `${task.who}: ${tool.name}'s page says who may use it`);
    }
    assert.deepEqual(problems, []);
  });
}
