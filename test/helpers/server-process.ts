/**
 * The real server as a child process (src/server.ts, as `npm start` runs it), for what only
 * a process shows: start-up, signals, exit codes, and what the runtime prints when it dies.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestContext } from 'node:test';
import { send } from './http.js';
import { freePort } from './services.js';

export const SERVER = path.resolve(import.meta.dirname, '../../src/server.ts');
export const IMPORT_CLI = path.resolve(import.meta.dirname, '../../src/cli/import.ts');
/** Preloaded with --expose-gc: forces a full collection every few milliseconds. */
export const GC_PRESSURE = path.resolve(import.meta.dirname, 'gc-pressure.mjs');

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startServer(t: TestContext, env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', SERVER], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  t.after(() => child.kill('SIGKILL'));
  let ready = false;
  for (let i = 0; i < 150 && !ready && child.exitCode === null; i++) {
    await sleep(100);
    ready = await send(port, '/readyz').then((r) => r.status === 200, () => false);
  }
  assert.ok(ready, `the server did not start: ${stderr}`);
  return {
    port,
    child,
    stderr: () => stderr,
    async stop(signal) {
      child.kill(signal);
      const [code, by] = await exited;
      return { code, signal: by };
    },
  };
}

/** What a runtime prints when native code fails: none of it may ever appear. */
export const NATIVE_FAILURE = /Assertion failed|Segmentation fault|core dumped|Aborted|FATAL ERROR|node::Abort/;
