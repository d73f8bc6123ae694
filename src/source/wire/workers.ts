/**
 * What taskora's workers leave behind in a task's keys, as far as the board
 * reads it (taskora 0.5.0, `redis/scripts.ts` and `worker.ts`): the stream
 * entry each claim writes (`active`, in the dequeue and the
 * ack-and-dequeue scripts), the entries a finish writes (`completed` by an
 * ack, `failed` by a final failure), and the lock each claim sets on the
 * job (`<job>:lock`, a random UUID per attempt, `PX` 30 s, renewed every
 * 10 s while the handler runs, deleted by the finishing script).
 *
 * @module
 */

/** The stream entry a worker's claim of a job writes. */
export const TAKEN_EVENT = "active";

/** The stream entries a worker's finish of a job writes (a retry writes `retrying`, not counted). */
export const FINISHED_EVENTS: readonly string[] = ["completed", "failed"];

/** The lock key of a job: `<jobPrefix><id>:lock` (see `TaskKeys.jobPrefix`). */
export function jobLockKey(jobPrefix: string, jobId: string): string {
  return `${jobPrefix}${jobId}:lock`;
}
