/**
 * What the HTTP door keeps per data revision: the response cache and the raw requests the
 * fast path may answer again. Kept beside the revision's state (a WeakMap keyed by it), not in
 * it: the live directory knows nothing of HTTP, and a new revision's state starts with empty
 * caches while the old ones go with the old state.
 */
import type { LRUCache } from 'lru-cache';
import type { DirectoryState } from '../live-directory.js';
import { createResponseCache, type CachedResponse } from './cached-response.js';

/** Bounds on what one revision remembers; past either, it starts again from empty. */
const MAX_REMEMBERED = 20_000;
const MAX_REMEMBERED_BYTES = 32 * 1024 * 1024;
/** Longer request keys (a URL near the 16 kB header bound) are answered by Fastify each time. */
export const MAX_REMEMBERED_KEY = 2048;
/** What a map entry costs besides its key and body: the entry, the string header, the slot. */
const ENTRY_OVERHEAD = 256;

/** Raw request key → the cached response Fastify sent for it, within one revision. */
export class RememberedResponses {
  private readonly map = new Map<string, CachedResponse>();
  /**
   * Bytes these entries may keep alive: keys (two bytes a character, the worst case) and
   * bodies with their compressed variants, which the response cache may already have let go.
   */
  private bytes = 0;

  get(key: string): CachedResponse | undefined {
    return this.map.get(key);
  }

  set(key: string, entry: CachedResponse): void {
    if (key.length > MAX_REMEMBERED_KEY || this.map.has(key)) return;
    const cost = key.length * 2 + entry.body.length * 2 + ENTRY_OVERHEAD; // room for br and gzip
    if (this.map.size >= MAX_REMEMBERED || this.bytes + cost > MAX_REMEMBERED_BYTES) {
      this.map.clear();
      this.bytes = 0;
    }
    this.map.set(key, entry);
    this.bytes += cost;
  }

  get size(): number {
    return this.map.size;
  }

  /** What the entries are counted as keeping alive, in bytes (never above 32 MiB). */
  get retainedBytes(): number {
    return this.bytes;
  }
}

export interface HttpRevision {
  readonly responses: LRUCache<string, CachedResponse>;
  /** Raw requests already answered from `responses`, for the fast path (fast-path.ts). */
  readonly remembered: RememberedResponses;
}

const byState = new WeakMap<DirectoryState, HttpRevision>();

/** The HTTP caches of a revision's state, made empty on first use. */
export function httpRevision(state: DirectoryState): HttpRevision {
  let revision = byState.get(state);
  if (revision === undefined) {
    revision = { responses: createResponseCache(), remembered: new RememberedResponses() };
    byState.set(state, revision);
  }
  return revision;
}
