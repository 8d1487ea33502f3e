/**
 * A memo that starts again from empty once it holds `limit` entries (with `limit` 0 it keeps
 * nothing): what the search, the filters and the exports keep per revision. Starting again
 * rather than evicting one entry at a time costs nothing per hit, and what is asked often is
 * back after a few requests.
 */
export class Memo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** The value kept for `key`, or `compute()`'s, kept for next time. */
  get(key: K, compute: () => V): V {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const value = compute();
    if (this.limit > 0) {
      if (this.entries.size >= this.limit) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
