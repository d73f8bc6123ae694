/**
 * The memory source's tasks and counts: every task with a key, its counts
 * per state, its queue heads and stalled jobs, its jobs due later.
 *
 * @module
 */

import { OLDEST_WAITING_SCAN, queuedSince } from "../../../contract/health.ts";
import { snapshotsOf } from "../../snapshots.ts";
import {
  type BacklogAnswers,
  type BacklogQuery,
  JOB_STATES,
  type ListTasksOptions,
  type QueueHeads,
  type QueueSnapshot,
  type QueueStats,
} from "../../types.ts";
import { stalledJobs } from "../liveness.ts";
import type { MemoryStore, TaskQueue } from "../store.ts";
import { countState } from "./reads.ts";

/** The tasks and their counts, from the store. */
export class MemoryCounts {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /**
   * Each task's delayed and retrying jobs due after `at` (an unknown task has
   * none); the backlog by kind is not told apart here (null).
   */
  readBacklog<R extends BacklogQuery>(read: R): Promise<BacklogAnswers[R["kind"]]> {
    const answer = read.kind === "dueAfter"
      ? new Map(
        read.tasks.map((
          task,
        ) => [task, this.#store.tasks.get(task)?.delayed.countAbove(read.at) ?? 0]),
      )
      : null;
    return Promise.resolve(answer as BacklogAnswers[R["kind"]]);
  }

  /** Sorted names of every task with any key (fresh or not: the store is its own cache). */
  listTasks(_options?: ListTasksOptions): Promise<string[]> {
    return Promise.resolve([...this.#store.tasks.keys()].sort());
  }

  /** Counts per state; a task the store does not know counts zero everywhere. */
  getStats(tasks: string[]): Promise<Map<string, QueueStats>> {
    const stats = new Map<string, QueueStats>();
    for (const task of tasks) {
      const queue = this.#store.tasks.get(task);
      stats.set(
        task,
        Object.fromEntries(
          JOB_STATES.map((state) => [state, queue ? countState(queue, state) : 0]),
        ) as QueueStats,
      );
    }
    return Promise.resolve(stats);
  }

  /** The store counts exactly: every figure is as of now. */
  retryingAsOf(tasks: string[]): Map<string, number | null> {
    const now = Date.now();
    return new Map(tasks.map((task) => [task, now]));
  }

  /** Counts, heads and stalled jobs per task, read one after the other (see `snapshots.ts`). */
  getQueueSnapshots(tasks: string[]): Promise<Map<string, QueueSnapshot>> {
    return snapshotsOf(this.getStats(tasks), this.#heads(tasks), (task) => {
      const queue = this.#store.tasks.get(task);
      if (!queue) return { total: 0, checked: 0 };
      const { total, checked } = stalledJobs(this.#store, queue);
      return { total, checked };
    });
  }

  /**
   * The job waiting longest (of both ends of the wait list and the
   * prioritized set, as the Redis source reads them), the job active longest
   * (the active list's tail) and the one due first, per task.
   */
  #heads(tasks: string[]): Map<string, QueueHeads> {
    const heads = new Map<string, QueueHeads>();
    for (const task of tasks) {
      const queue = this.#store.tasks.get(task);
      const active = queue?.jobs.get(queue.active[queue.active.length - 1]);
      const due = queue?.delayed.peekMin();
      const waiting = (queue ? waitingEnds(queue) : [])
        .map((id) => queue?.jobs.get(id))
        .filter((job) => job !== undefined)
        .map((job) => ({ id: job.id, since: queuedSince({ ...job, delay: job.delay ?? 0 }) }))
        .sort((a, b) => a.since - b.since);
      heads.set(task, {
        oldestWaiting: waiting[0] ?? null,
        oldestActive: active?.processedAt != null
          ? { id: active.id, since: active.processedAt }
          : null,
        nextDue: due ? { id: due.member, at: due.score } : null,
      });
    }
    return heads;
  }
}

/**
 * The waiting jobs whose wait the heads compare: the {@link OLDEST_WAITING_SCAN}
 * at each end of the wait list and of the prioritized set (all when few), as
 * the Redis source reads them.
 */
function waitingEnds(queue: TaskQueue): string[] {
  const scan = OLDEST_WAITING_SCAN;
  const { wait, prioritized } = queue;
  const listEnds = wait.length <= 2 * scan ? wait : [...wait.slice(0, scan), ...wait.slice(-scan)];
  const setEnds = prioritized.size <= 2 * scan
    ? prioritized.range(0, 2 * scan)
    : [...prioritized.range(0, scan), ...prioritized.range(0, scan, true)];
  return [...listEnds, ...setEnds];
}
