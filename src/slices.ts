/**
 * Long work cut into slices, so a server building the next revision keeps answering
 * requests meanwhile (30,440 tools once froze it for 2 s). The work is written as a
 * generator that `yield`s wherever it may pause; a driver runs it either at once (at start-up,
 * in tests) or a slice at a time, giving the event loop a turn between slices.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to the end without pausing. */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs the steps to the end, letting other events run whenever a slice has lasted `sliceMs`.
 * The steps must not be shared: what they build stays theirs until they return it.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = 8): Promise<T> {
  for (;;) {
    const started = performance.now();
    let step = steps.next();
    while (!step.done && performance.now() - started < sliceMs) step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/** How many comparisons a sort makes between two chances to pause. */
const COMPARISONS_PER_STEP = 4096;

/**
 * Sorts `items` in place, stably, pausing between runs of comparisons: sorted runs of a few
 * thousand, then merged pairwise (Array.prototype.sort on 100,000 names with a French collator
 * is one block of over a second).
 */
export function* sortInSlices<T>(items: T[], compare: (a: T, b: T) => number): Steps<void> {
  const run = 1024;
  for (let start = 0; start < items.length; start += run) {
    const sorted = items.slice(start, start + run).sort(compare);
    for (let k = 0; k < sorted.length; k++) items[start + k] = sorted[k]!;
    yield;
  }
  let from = items;
  let to: T[] = new Array<T>(items.length);
  let comparisons = 0;
  for (let width = run; width < items.length; width *= 2) {
    for (let left = 0; left < items.length; left += 2 * width) {
      const middle = Math.min(left + width, items.length);
      const right = Math.min(left + 2 * width, items.length);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) {
        // Stable: on a tie the left run goes first.
        to[k++] = compare(from[j]!, from[i]!) < 0 ? from[j++]! : from[i++]!;
        if (++comparisons % COMPARISONS_PER_STEP === 0) yield;
      }
      while (i < middle) to[k++] = from[i++]!;
      while (j < right) to[k++] = from[j++]!;
    }
    [from, to] = [to, from];
    yield;
  }
  if (from !== items) for (let k = 0; k < items.length; k++) items[k] = from[k]!;
}
