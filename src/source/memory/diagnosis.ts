/**
 * What holds one job of the memory store back (see
 * `contract/diagnosis.ts`), read as the Redis source reads taskora's keys:
 * its place in the queue, its run time and dispatch delay, its task's
 * active jobs and its lock. The
 * store models no flow control (concurrency keys, dedup, debounce,
 * collect), so those read as absent.
 *
 * @module
 */

import { HOLDER_SCAN, type JobHolds, QUEUE_POSITION_LIMIT } from "../../contract/diagnosis.ts";
import type { MemoryStore, StoredJob, TaskQueue } from "./store.ts";

/** Jobs a worker takes before `id`: the wait list first, then the prioritized set. */
function aheadOf(queue: TaskQueue, id: string): number | null {
  const index = queue.wait.indexOf(id);
  const ahead = index >= 0
    ? index
    : queue.wait.length + queue.prioritized.range(0, queue.prioritized.size).indexOf(id);
  return ahead < 0 || ahead > QUEUE_POSITION_LIMIT ? null : ahead;
}

/** The facts of `job`, a job of the store. */
export function jobHolds(store: MemoryStore, queue: TaskQueue, job: StoredJob): JobHolds {
  const lock = job.state === "active" ? store.lockOf(queue.locks.get(job.id) ?? null) : null;
  const first = queue.active.slice(0, HOLDER_SCAN);
  return {
    id: job.id,
    task: job.task,
    state: job.state,
    attempt: job.attempt,
    maxAttempts: job.maxAttempts,
    version: job.version,
    createdAt: job.createdAt,
    ahead: job.state === "waiting" ? aheadOf(queue, job.id) : null,
    waiting: queue.wait.length + queue.prioritized.size,
    runAt: queue.delayed.score(job.id) ?? null,
    dispatchDelayMs: job.delay ?? null,
    concurrency: null,
    dedupKey: null,
    collect: null,
    debounceReplaced: null,
    active: {
      count: queue.active.length,
      ids: first,
      locked: first.filter((id) => store.lockOf(queue.locks.get(id) ?? null) !== null).length,
    },
    expireAt: job.expireAt != null && job.expireAt > 0 ? job.expireAt : null,
    cancelRequested: job.state === "active" && job.cancelledAt != null
      ? { at: job.cancelledAt, reason: job.cancelReason ?? null }
      : null,
    lock: job.state === "active"
      ? {
        token: lock?.token ?? null,
        ttlMs: lock?.expiresAt == null ? null : lock.expiresAt - store.now(),
      }
      : null,
  };
}
