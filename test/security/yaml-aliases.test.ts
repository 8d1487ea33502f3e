/**
 * A content file that is a YAML alias bomb ("billion laughs": each alias doubles what the
 * next one expands to) must be refused by every reader of content files, naming the file,
 * with that reader's own exit code, and without a stack trace.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { fixtureDataset, tempDir, writeContent } from '../helpers/fixture.js';
import { SERVER } from '../helpers/server-process.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/cli');

/** Thirty levels of nine aliases each: 9^30 strings once expanded. */
function aliasBomb(): string {
  const lines = ['l0: &l0 "ha"'];
  for (let i = 1; i <= 30; i++) lines.push(`l${i}: &l${i} [${Array.from({ length: 9 }, () => `*l${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

async function bombedContent(t: TestContext, where: 'tools/quizzy.yaml' | 'categories.yaml' | 'synonyms.yaml') {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const content = await writeContent(path.join(dir, 'content'), fixtureDataset());
  const file = path.join(content, where);
  // In a tool file, after its real fields.
  await writeFile(file, where === 'tools/quizzy.yaml' ? `${await readFile(file, 'utf8')}${aliasBomb()}` : aliasBomb());
  return { dir, content, file };
}

async function cli(name: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(CLI, name), ...args], {
      env: { ...process.env, DATABASE_URL: '', CONTENT_DIR: '', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const STACK = /\n\s+at .+:\d+:\d+/;

for (const where of ['tools/quizzy.yaml', 'categories.yaml', 'synonyms.yaml'] as const) {
  test(`YAML alias bomb in ${where} › npm run import refuses it as invalid content (exit 1), naming the file`, async (t) => {
    const { dir, content } = await bombedContent(t, where);
    const result = await cli('import.ts', ['--content', content, '--database', path.join(dir, 'db.sqlite')]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.ok(result.stderr.includes(where), result.stderr);
    assert.match(result.stderr, /alias/i);
    assert.doesNotMatch(result.stderr, STACK);
  });
}

test('YAML alias bomb › check-links and screenshots refuse the content (exit 3), naming the file, without a crash', async (t) => {
  const { content } = await bombedContent(t, 'tools/quizzy.yaml');
  for (const name of ['check-links.ts', 'screenshots.ts']) {
    const result = await cli(name, [content]);
    assert.equal(result.code, 3, `${name}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, /quizzy\.yaml/, name);
    assert.match(result.stderr, /alias/i, name);
    assert.doesNotMatch(result.stderr, STACK, name);
    assert.doesNotMatch(result.stderr, /ReferenceError/, name);
  }
});

test('YAML alias bomb › the server refuses to start on it with a message naming the file, not a stack trace', async (t) => {
  const { dir, content } = await bombedContent(t, 'categories.yaml');
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', DATABASE_URL: path.join(dir, 'db.sqlite'), CONTENT_DIR: content },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 1, output);
  assert.match(output, /categories\.yaml/);
  assert.match(output, /alias/i);
  assert.doesNotMatch(output, STACK);
});
