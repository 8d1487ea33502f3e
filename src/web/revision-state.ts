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
/** Bounds on the keys of pages asked once (AskedOnce): 20,000 keys, 4 M characters (8 MiB at most). */
const MAX_ASKED = 20_000;
const MAX_ASKED_CHARS = 4 * 1024 * 1024;
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
    // A page built for its request alone (cachedOnRepeat) is not remembered either.
    if (entry.once === true || key.length > MAX_REMEMBERED_KEY || this.map.has(key)) return;
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

/**
 * The keys of the pages asked once in this revision (cachedOnRepeat). Past its bound it starts
 * again from empty, as RememberedResponses does: a key forgotten so costs one more build.
 */
export class AskedOnce {
  private readonly keys = new Set<string>();
  private chars = 0;

  /** True when `key` was asked before (and forgets it: the page is kept from now on); else notes it. */
  repeated(key: string): boolean {
    if (this.keys.delete(key)) {
      this.chars -= key.length;
      return true;
    }
    if (this.keys.size >= MAX_ASKED || this.chars + key.length > MAX_ASKED_CHARS) {
      this.keys.clear();
      this.chars = 0;
    }
    this.keys.add(key);
    this.chars += key.length;
    return false;
  }

  get size(): number {
    return this.keys.size;
  }
}

export interface HttpRevision {
  readonly responses: LRUCache<string, CachedResponse>;
  /** Search pages asked once, not kept yet (cachedOnRepeat). */
  readonly asked: AskedOnce;
  /** Raw requests already answered from `responses`, for the fast path (fast-path.ts). */
  readonly remembered: RememberedResponses;
}

const byState = new WeakMap<DirectoryState, HttpRevision>();

/** The HTTP caches of a revision's state, made empty on first use. */
export function httpRevision(state: DirectoryState): HttpRevision {
  let revision = byState.get(state);
  if (revision === undefined) {
    revision = { responses: createResponseCache(), remembered: new RememberedResponses(), asked: new AskedOnce() };
    byState.set(state, revision);
  }
  return revision;
}

/**
 * The response for `key` from the revision's cache, else built. A page (a search's, a tool's)
 * is kept (and remembered by the fast path) only from its second request in the revision, as
 * a CDN's "cache on second hit": a query typed once, as most searches are, is built for its
 * request alone and marked `once`, so it neither evicts the pages asked again and again nor costs
 * the copies and the garbage collector's work of a page kept for nobody (docs/performance.md).
 * `keep` says which built responses may be kept at all (a page's error is not).
 */
export function cachedOnRepeat(
  revision: HttpRevision,
  key: string,
  build: () => CachedResponse,
  keep: (entry: CachedResponse) => boolean = () => true,
): CachedResponse {
  const cached = revision.responses.get(key);
  if (cached !== undefined) return cached;
  const repeated = revision.asked.repeated(key);
  const entry = build();
  if (!keep(entry)) return entry;
  if (repeated) revision.responses.set(key, entry);
  else entry.once = true;
  return entry;
}
