/**
 * A task's workers as its locks and event stream show them: when they last
 * took and finished a job, the live lock holders among its newest active
 * jobs, and the fewest live workers they allow (see `contract/workers.ts`).
 *
 * @module
 */

import {
  estimateWorkers,
  lockHolders,
  type TaskWorkersResponse,
  WORKERS_ACTIVE_SAMPLE,
  WORKERS_EVENT_DEPTH,
} from "../contract/workers.ts";
import type { TaskSource } from "../source/types.ts";

const NO_WORKER_READS = "this TaskSource reads no event stream and no job locks; the board " +
  "reads them from Redis, with the App's Redis adapter or a redis:// URL";

/** Task `task`'s workers at `readAt`, as its locks and event stream show them. */
export async function readTaskWorkers(
  source: TaskSource,
  task: string,
  readAt: number,
): Promise<TaskWorkersResponse> {
  if (!source.readLocks || !source.readStreams) {
    await source.getTaskStorage(task); // TASK_NOT_FOUND when unknown
    return { task, readAt, known: false, reason: NO_WORKER_READS };
  }
  const [{ active, locks }, activity, definition] = await Promise.all([
    source.readLocks({ kind: "active", task, limit: WORKERS_ACTIVE_SAMPLE }),
    source.readStreams({ kind: "activity", tasks: [task], depth: WORKERS_EVENT_DEPTH }),
    source.getTaskDefinition?.(task) ?? null,
  ]);
  const holders = lockHolders(locks);
  return {
    task,
    readAt,
    known: true,
    activity: activity.get(task)!,
    active,
    sampled: locks.length,
    holders,
    unlocked: locks.filter((lock) => lock.token === null).map((lock) => lock.id),
    estimate: estimateWorkers(
      holders.length,
      definition?.concurrency ?? null,
      locks.length,
      active,
    ),
  };
}
