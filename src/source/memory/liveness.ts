/**
 * Liveness of the memory store (see `contract/liveness.ts`): its locks are
 * the simulated workers' and scheduler's, or a dump's, read as Redis would
 * answer GET, PTTL and the `:stalled` set at the store's clock.
 *
 * @module
 */

import {
  type JobLock,
  type SchedulerLeadership,
  STALLED_SCAN,
  type StalledJobs,
  type TaskLiveness,
} from "../../contract/liveness.ts";
import type { MemoryStore, StoredLock, TaskQueue } from "./store.ts";

function ttlOf(store: MemoryStore, lock: StoredLock): number | null {
  return lock.expiresAt === null ? null : lock.expiresAt - store.now();
}

/**
 * The active jobs without a lock among the {@link STALLED_SCAN} claimed
 * longest ago (the list's tail, as in Redis), oldest first.
 */
export function stalledJobs(store: MemoryStore, queue: TaskQueue): StalledJobs {
  const oldest = queue.active.slice(-STALLED_SCAN).reverse();
  const ids = oldest.filter((id) => store.lockOf(queue.locks.get(id) ?? null) === null);
  return { ids, total: ids.length, checked: oldest.length };
}

/** The named jobs' locks and the task's stalled jobs. */
export function taskLiveness(
  store: MemoryStore,
  queue: TaskQueue,
  jobIds: readonly string[],
): TaskLiveness {
  const locks = jobIds.map((id): JobLock => {
    const lock = store.lockOf(queue.locks.get(id) ?? null);
    return {
      id,
      token: lock?.token ?? null,
      ttlMs: lock ? ttlOf(store, lock) : null,
      inStalledSet: queue.stalled.has(id),
    };
  });
  return { known: true, locks, stalled: stalledJobs(store, queue) };
}

/** The scheduler leader lock. */
export function schedulerLeadership(store: MemoryStore): SchedulerLeadership {
  const lock = store.lockOf(store.schedulerLock);
  return {
    known: true,
    leader: lock ? { token: lock.token, ttlMs: ttlOf(store, lock) } : null,
  };
}
