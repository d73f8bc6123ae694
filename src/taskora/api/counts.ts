/**
 * The App source's tasks and counts: the App's registered tasks, their
 * counts per state (delayed and retrying told apart by each delayed job's
 * state) and their queue heads, read through the adapter.
 *
 * @module
 */

import { OLDEST_WAITING_SCAN, queuedSince } from "../../contract/health.ts";
import { snapshotsOf } from "../../source/snapshots.ts";
import type {
  ListTasksOptions,
  QueueHeads,
  QueueSnapshot,
  QueueStats,
} from "../../source/types.ts";
import { type AppApi, type RawJob, SCAN_LIMIT } from "./app_api.ts";

/** The tasks and their counts, through the App. */
export class AppCounts {
  readonly #api: AppApi;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  /** The App's registered tasks, sorted (fresh or not: an App's tasks are known, not discovered). */
  listTasks(_options?: ListTasksOptions): Promise<string[]> {
    return Promise.resolve(this.#api.tasks());
  }

  /** Counts per state (delayed and retrying told apart by each delayed job's state). */
  async getStats(tasks: string[]): Promise<Map<string, QueueStats>> {
    const known = new Set(this.#api.tasks());
    const entries = await Promise.all(
      tasks.filter((t) => known.has(t)).map(async (task) => {
        const [stats, split] = await Promise.all([
          this.#api.adapter.getQueueStats(task),
          this.#api.delayedSplit(task),
        ]);
        const counts: QueueStats = {
          ...stats,
          delayed: split.delayed.length,
          retrying: split.retrying.length,
        };
        return [task, counts] as const;
      }),
    );
    return new Map(entries);
  }

  /** The waiting jobs at both ends of the adapter's list, {@link OLDEST_WAITING_SCAN} each. */
  async #waitingEnds(task: string): Promise<{ id: string; details: RawJob }[]> {
    const scan = OLDEST_WAITING_SCAN;
    const { waiting } = await this.#api.adapter.getQueueStats(task);
    if (waiting <= 2 * scan) {
      return await this.#api.adapter.listJobDetails(task, "waiting", 0, 2 * scan);
    }
    const [first, last] = await Promise.all([
      this.#api.adapter.listJobDetails(task, "waiting", 0, scan),
      this.#api.adapter.listJobDetails(task, "waiting", waiting - scan, scan),
    ]);
    return [...first, ...last];
  }

  /** The split is read whole on every {@link getStats} (the store is in-process): exact now. */
  retryingAsOf(tasks: string[]): Map<string, number | null> {
    const now = Date.now();
    return new Map(tasks.map((task) => [task, now]));
  }

  /**
   * Counts and heads per task, read one after the other (see `snapshots.ts`);
   * stalled jobs are not known: taskora's API shows no job lock.
   */
  getQueueSnapshots(tasks: string[]): Promise<Map<string, QueueSnapshot>> {
    return snapshotsOf(this.getStats(tasks), this.#heads(tasks));
  }

  /**
   * The job waiting longest (of the {@link OLDEST_WAITING_SCAN} at each end
   * of what the adapter lists, the prioritized jobs first, as the Redis
   * source reads each queue's ends) and the job active longest; the next due
   * delayed job is not exposed by the API (null).
   */
  async #heads(tasks: string[]): Promise<Map<string, QueueHeads>> {
    const known = new Set(this.#api.tasks());
    const entries = await Promise.all(tasks.map(async (task) => {
      const none: QueueHeads = { oldestWaiting: null, oldestActive: null, nextDue: null };
      if (!known.has(task)) return [task, none] as const;
      const [waiting, active] = await Promise.all([
        this.#waitingEnds(task),
        this.#api.adapter.listJobDetails(task, "active", 0, SCAN_LIMIT),
      ]);
      const next = waiting.map(({ id, details }) => {
        const job = this.#api.decode(task, id, details);
        const delay = Number(details.fields.delay) || 0;
        return { id, since: queuedSince({ ...job, delay }) };
      }).sort((a, b) => a.since - b.since)[0];
      const oldest = active
        .map(({ id, details }) => this.#api.decode(task, id, details))
        .filter((job) => job.processedAt !== null)
        .sort((a, b) => a.processedAt! - b.processedAt!)[0];
      const heads: QueueHeads = {
        oldestWaiting: next ?? null,
        oldestActive: oldest ? { id: oldest.id, since: oldest.processedAt! } : null,
        nextDue: null,
      };
      return [task, heads] as const;
    }));
    return new Map(entries);
  }
}
