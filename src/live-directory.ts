/**
 * Keeps the read model in step with the store. The current state (the model and what derives from it)
 * is one object replaced in a single assignment, so a request sees one revision from start
 * to end. New revisions are noticed by a periodic check and, where the store can tell
 * (PostgreSQL LISTEN/NOTIFY), at once. If the store goes away, the last model keeps serving.
 *
 * A refresh that does not finish within `refreshTimeoutMs` (a store that stopped answering
 * without an error) counts as the store being unreachable, and is abandoned: the next check
 * starts afresh, and whatever the abandoned one loads later is dropped.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ToolListJson } from './directory/representations.js';
import { buildReadModel, readModelSteps, type ReadModel } from './read-model/read-model.js';
import { runInSlices } from './slices.js';
import type { DirectoryStore } from './store/directory-store.js';

export interface DirectoryState {
  readonly model: ReadModel;
  /** Pages of GET /tools joined from summaries serialised once (http/representations.ts). */
  readonly toolLists: ToolListJson;
}

/**
 * A revision's state: its read model and what is derived from it alone. A door keeps its own
 * per-revision caches beside it (http/revision-state.ts), so they start empty with each new state.
 */
function stateOf(model: ReadModel): DirectoryState {
  return { model, toolLists: new ToolListJson(model) };
}

export interface LiveDirectoryOptions {
  checkEveryMs: number;
  /**
   * A change notified to every instance at once (PostgreSQL NOTIFY) is loaded after a random
   * delay up to this, so instances do not all rebuild at the same moment.
   */
  notifyJitterMs?: number;
  /** Longest a refresh (revision check, snapshot, build) may take, in ms; default 60 s. */
  refreshTimeoutMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export class LiveDirectory {
  private state: DirectoryState;
  private timer: NodeJS.Timeout | undefined;
  private unwatch: (() => Promise<void>) | undefined;
  private refreshing: Promise<boolean> | null = null;
  private storeHealthy = true;
  /** Bumped when a refresh is abandoned or the directory stops: older refreshes load nothing. */
  private generation = 0;
  private stopped = false;

  private constructor(
    private readonly store: DirectoryStore,
    model: ReadModel,
    private readonly options: LiveDirectoryOptions,
  ) {
    this.state = stateOf(model);
  }

  static async open(store: DirectoryStore, options: LiveDirectoryOptions): Promise<LiveDirectory> {
    return new LiveDirectory(store, buildReadModel(await store.readSnapshot()), options);
  }

  get current(): DirectoryState {
    return this.state;
  }

  /** Whether the last check could reach the store. */
  get storeReachable(): boolean {
    return this.storeHealthy;
  }

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.refresh(), this.options.checkEveryMs);
    this.timer.unref();
    if (this.store.watch) {
      this.unwatch = await this.store.watch(() => {
        const delay = Math.random() * (this.options.notifyJitterMs ?? 0);
        const timer = setTimeout(() => void this.refresh(), delay);
        timer.unref();
      });
    }
  }

  /** Loads the store's revision if it is newer; true when the model was replaced. */
  refresh(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    // One refresh at a time; a call during one shares its result.
    if (this.refreshing) return this.refreshing;
    const generation = this.generation;
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.options.refreshTimeoutMs ?? 60_000;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        if (this.generation === generation) this.generation++;
        this.unreachable(new Error(`refresh took longer than ${timeoutMs} ms`));
        resolve(false);
      }, timeoutMs);
      timer.unref();
    });
    const refreshing = Promise.race([this.doRefresh(generation), timedOut]).finally(() => {
      clearTimeout(timer);
      if (this.refreshing === refreshing) this.refreshing = null;
    });
    this.refreshing = refreshing;
    return refreshing;
  }

  private async doRefresh(generation: number): Promise<boolean> {
    try {
      const revision = await this.store.revision();
      if (this.generation !== generation) return false;
      if (!this.storeHealthy) this.options.log?.info({ engine: this.store.engine }, 'store reachable again');
      this.storeHealthy = true;
      if (revision === this.state.model.revision) return false;
      const snapshot = await this.store.readSnapshot();
      if (snapshot.revision === this.state.model.revision) return false;
      // In slices: requests keep being answered from the current model while the next is built.
      const model = await runInSlices(readModelSteps(snapshot));
      if (this.generation !== generation) return false;
      this.state = stateOf(model);
      this.options.log?.info({ revision: model.revision, tools: model.tools.length }, 'directory revision loaded');
      return true;
    } catch (err) {
      if (this.generation === generation) this.unreachable(err);
      return false;
    }
  }

  private unreachable(err: unknown): void {
    if (this.storeHealthy) this.options.log?.warn({ err }, 'store unreachable: still serving the last loaded revision');
    this.storeHealthy = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    clearInterval(this.timer);
    await this.unwatch?.();
  }
}
