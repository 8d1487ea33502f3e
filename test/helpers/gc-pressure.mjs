// Preloaded into a child process started with --expose-gc (test/server/runtime.test.ts):
// garbage collection at every moment a real process might collect. Full collections are
// forced from JavaScript, and allocation churn makes V8 also start and finish collections
// from its own tasks, outside any JavaScript context: where better-sqlite3 12's statement
// finaliser asserts on Node.js 24.19+ (a forced gc() alone never reproduced it).
if (typeof globalThis.gc !== 'function') throw new Error('gc-pressure.mjs needs --expose-gc');
let churn = [];
setInterval(() => {
  for (let i = 0; i < 20_000; i++) churn.push({ i });
  if (churn.length >= 400_000) churn = [];
}, 2).unref();
setInterval(() => globalThis.gc(), 50).unref();
