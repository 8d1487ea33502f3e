/**
 * `check-links --write` killed with SIGKILL while it writes a content file: whatever it
 * leaves behind must neither look like content to the loader nor show up in `git status`.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { loadContent } from '../../src/content/load-content.js';
import { closedPort } from '../helpers/fixture-sites.js';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'src/cli/check-links.ts');
const INTERRUPT = path.join(ROOT, 'test/helpers/interrupted-writes.mjs');

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

test('check-links --write killed with SIGKILL mid-write leaves nothing that looks like content, and nothing git would show', async (t) => {
  const port = await closedPort();
  const dataset = fixtureDataset();
  for (const tool of dataset.tools) tool.website_url = `https://127.0.0.1:${port}/${tool.slug}`;
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), dataset);
  const before = await filesUnder(content);

  const child = spawn(process.execPath, ['--import', INTERRUPT, '--import', 'tsx', CLI, content, '--write', '--slug', 'quizzy', '--allow-address', `127.0.0.1:${port}`], {
    env: { ...process.env, CONTENT_DIR: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.after(() => child.kill('SIGKILL'));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (c) => {
      stderr += c;
      if (stderr.includes('[interrupted-writes] created')) resolve();
    });
    child.once('exit', () => reject(new Error(`exited before writing: ${stderr}`)));
  });
  child.kill('SIGKILL');
  await once(child, 'exit');

  const left = (await filesUnder(content)).filter((f) => !before.includes(f));
  // Whatever is left inside the content folder (nothing, ideally) is skipped by the loader...
  const loaded = await loadContent(content);
  assert.ok(loaded.ok, `the content still loads: ${JSON.stringify(!loaded.ok && loaded.problems)}`);
  // ...and ignored by git, were the folder the project's content/.
  for (const file of left) {
    const ignored = await run('git', ['-C', ROOT, 'check-ignore', '--no-index', '-q', path.join('content', file)]).then(() => true, () => false);
    assert.ok(ignored, `content/${file} is left behind and git does not ignore it`);
  }
});
