/**
 * How many jobs run at once, overall and per host, for the publishing commands: a link
 * check of 600 URLs must not open 600 sockets, nor send a dozen requests to one vendor's
 * site at the same moment.
 */

/** At most `size` holders at a time; the others wait in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await job();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** A semaphore per key (a host name), made on first use. */
export class KeyedSemaphore {
  private readonly byKey = new Map<string, Semaphore>();

  constructor(private readonly size: number) {}

  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    let semaphore = this.byKey.get(key);
    if (!semaphore) this.byKey.set(key, (semaphore = new Semaphore(this.size)));
    return semaphore.run(job);
  }
}

/** Runs `job` on every item, `concurrency` at a time, and returns the results in item order. */
export async function mapWithConcurrency<T, R>(items: readonly T[], concurrency: number, job: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
