/**
 * The bounded reads a task's verdict needs beyond its counts and heads,
 * made only for the few tasks whose verdict depends on them: whether its
 * next job waited past the idle limit (then how long none was taken
 * matters), and for those none of whose jobs was taken for that long, the
 * live locks that tell busy workers from missing ones. The overview's
 * direct read and the live state's passes both use them.
 *
 * @module
 */

import type { QueueSnapshot, TaskSource } from "../source/types.ts";
import { HEALTH_LOCK_SAMPLE } from "../contract/workers.ts";

/**
 * Whether a task's jobs wait and the next a worker takes has waited longer
 * than `maxIdleMs` (or its heads are unknown), or its next due delayed or
 * retrying job is overdue by as long (taskora promotes it only when a worker
 * asks for a job).
 */
export function waitedPast(snapshot: QueueSnapshot, now: number, maxIdleMs: number): boolean {
  const { stats, heads } = snapshot;
  if (heads.nextDue !== null && now - heads.nextDue.at > maxIdleMs) return true;
  if (stats.waiting === 0) return false;
  return heads.oldestWaiting === null || now - heads.oldestWaiting.since > maxIdleMs;
}

/**
 * For the tasks `idle` picks among `tasks` (none taken for over the limit, jobs
 * active), the live locks among their {@link HEALTH_LOCK_SAMPLE} newest claimed
 * active jobs: a bounded read for the few tasks whose verdict it turns from "no
 * worker" into "busy", so a pass over healthy tasks reads no lock.
 */
export async function runningOf(
  source: TaskSource,
  tasks: readonly string[],
  idle: (task: string) => boolean,
): Promise<Map<string, number>> {
  if (!source.readLocks) return new Map();
  const picked = tasks.filter(idle);
  const locks = await Promise.all(
    picked.map((task) => source.readLocks!({ kind: "active", task, limit: HEALTH_LOCK_SAMPLE })),
  );
  return new Map(picked.map((task, i) => [
    task,
    locks[i].locks.filter((lock) => lock.token !== null).length,
  ]));
}
