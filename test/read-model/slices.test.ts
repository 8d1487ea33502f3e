/** Work in slices (src/slices.ts): the same result as at once, with turns for other events. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { runAtOnce, runInSlices, sortInSlices } from '../../src/slices.js';

test('slices › sortInSlices sorts like a stable Array.prototype.sort', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ key: fc.integer({ min: 0, max: 20 }), id: fc.nat() }), { maxLength: 5000 }), (items) => {
      const compare = (a: { key: number }, b: { key: number }) => a.key - b.key;
      const expected = [...items].sort(compare);
      runAtOnce(sortInSlices(items, compare));
      assert.deepEqual(items, expected);
    }),
    { numRuns: 200 },
  );
});

test('slices › runInSlices lets other events run between slices, runAtOnce does not', async () => {
  function* busy(): Generator<void, string> {
    for (let i = 0; i < 50; i++) {
      const until = performance.now() + 2;
      while (performance.now() < until);
      yield;
    }
    return 'done';
  }
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  assert.equal(await runInSlices(busy(), 5), 'done');
  assert.ok(turns >= 5, `other events ran ${turns} times during 100 ms of work in 5 ms slices`);
  turns = 0;
  assert.equal(runAtOnce(busy()), 'done');
  assert.equal(turns, 0);
  counting = false;
});
