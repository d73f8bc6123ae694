/**
 * Liveness of the memory store (see `contract/liveness.ts`): its locks are
 * the simulated workers' and scheduler's, or a dump's, read as Redis would
 * answer GET, PTTL and the stalled set at the store's clock.
 *
 * @module
 */

import {
  type JobLock,
  type SchedulerLeadership,
  STALLED_SAMPLE,
  type TaskLiveness,
} from "../../contract/liveness.ts";
import type { MemoryStore, StoredLock, TaskQueue } from "./store.ts";

function ttlOf(store: MemoryStore, lock: StoredLock): number | null {
  return lock.expiresAt === null ? null : lock.expiresAt - store.now();
}

/** The named jobs' locks and a sample of the task's stalled set. */
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
  const ids = [...queue.stalled].sort().slice(0, STALLED_SAMPLE);
  return { known: true, locks, stalled: { ids, total: queue.stalled.size } };
}

/** The scheduler leader lock. */
export function schedulerLeadership(store: MemoryStore): SchedulerLeadership {
  const lock = store.lockOf(store.schedulerLock);
  return {
    known: true,
    leader: lock ? { token: lock.token, ttlMs: ttlOf(store, lock) } : null,
  };
}
