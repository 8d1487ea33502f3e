/**
 * A fixed-size set of tool indices as 32-bit words: intersections, unions and counts cost
 * N/32 word operations, whatever the number of matches.
 */
export class Bitset {
  readonly words: Uint32Array;

  constructor(readonly size: number, words?: Uint32Array) {
    this.words = words ?? new Uint32Array((size + 31) >>> 5);
  }

  add(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31);
  }

  has(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  and(other: Bitset): Bitset {
    const out = new Uint32Array(this.words.length);
    for (let w = 0; w < out.length; w++) out[w] = this.words[w]! & other.words[w]!;
    return new Bitset(this.size, out);
  }

  andNot(other: Bitset): Bitset {
    const out = new Uint32Array(this.words.length);
    for (let w = 0; w < out.length; w++) out[w] = this.words[w]! & ~other.words[w]!;
    return new Bitset(this.size, out);
  }

  /** Adds `members` in place. */
  addAll(members: ArrayLike<number>): void {
    for (let k = 0; k < members.length; k++) {
      const i = members[k]!;
      this.words[i >>> 5]! |= 1 << (i & 31);
    }
  }

  or(other: Bitset): Bitset {
    const out = new Uint32Array(this.words.length);
    for (let w = 0; w < out.length; w++) out[w] = this.words[w]! | other.words[w]!;
    return new Bitset(this.size, out);
  }

  isEmpty(): boolean {
    for (let w = 0; w < this.words.length; w++) if (this.words[w] !== 0) return false;
    return true;
  }

  count(): number {
    let n = 0;
    for (let w = 0; w < this.words.length; w++) n += popcount(this.words[w]!);
    return n;
  }

  /** The size of the intersection with `other`, without building it. */
  countAnd(other: Bitset): number {
    let n = 0;
    for (let w = 0; w < this.words.length; w++) n += popcount(this.words[w]! & other.words[w]!);
    return n;
  }

  /** Adds the members of `other` in place. */
  addSet(other: Bitset): void {
    for (let w = 0; w < this.words.length; w++) this.words[w]! |= other.words[w]!;
  }

  /** Adds `amount` to `values[i]` for each member i (a loop, not a call per member: the search's counts). */
  addTo(values: Float32Array | Uint8Array, amount: number): void {
    for (let w = 0; w < this.words.length; w++) {
      let v = this.words[w]!;
      while (v !== 0) {
        values[(w << 5) | (31 - Math.clz32(v & -v))]! += amount;
        v &= v - 1;
      }
    }
  }

  /** Calls `visit` with each member, in ascending order (no array is made). */
  forEach(visit: (i: number) => void): void {
    for (let w = 0; w < this.words.length; w++) {
      let v = this.words[w]!;
      while (v !== 0) {
        visit((w << 5) | (31 - Math.clz32(v & -v)));
        v &= v - 1;
      }
    }
  }

  /** Whether some member satisfies `test` (stops at the first). */
  some(test: (i: number) => boolean): boolean {
    for (let w = 0; w < this.words.length; w++) {
      let v = this.words[w]!;
      while (v !== 0) {
        if (test((w << 5) | (31 - Math.clz32(v & -v)))) return true;
        v &= v - 1;
      }
    }
    return false;
  }

  /** Members in ascending order, skipping the first `skip`, at most `limit` of them. */
  slice(skip: number, limit: number): number[] {
    const out: number[] = [];
    for (let w = 0; w < this.words.length && out.length < limit; w++) {
      let v = this.words[w]!;
      if (v === 0) continue;
      while (v !== 0) {
        const bit = 31 - Math.clz32(v & -v);
        v &= v - 1;
        if (skip > 0) skip--;
        else {
          out.push((w << 5) | bit);
          if (out.length === limit) break;
        }
      }
    }
    return out;
  }
}

/** Set bits in a 32-bit word (the SWAR count). */
function popcount(word: number): number {
  let v = word;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
