/**
 * The memory source's view of its workers: job locks and stalled jobs,
 * what holds a job back, the streams' activity, drain and re-runs, the
 * scheduler's leader.
 *
 * @module
 */

import type { JobHolds } from "../../../contract/diagnosis.ts";
import type { DrainScan } from "../../../contract/queue_eta.ts";
import type { ActiveLocks, SchedulerLeadership, TaskActivity, TaskLiveness } from "../../types.ts";
import { taskActivity } from "../activity.ts";
import { jobHolds } from "../diagnosis.ts";
import { drainScan } from "../drain_scan.ts";
import { schedulerLeadership, taskLiveness } from "../liveness.ts";
import { rerunsOf } from "../reruns.ts";
import type { MemoryStore } from "../store.ts";
import { queueOf } from "./reads.ts";

/** Workers, locks and streams, as the store holds them. */
export class MemoryWorkers {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** The named jobs' locks and the task's stalled jobs; see `liveness.ts`. */
  getTaskLiveness(task: string, jobIds: readonly string[]): Promise<TaskLiveness> {
    return Promise.try(() => taskLiveness(this.#store, queueOf(this.#store, task), jobIds));
  }

  /** What holds a job back; see `diagnosis.ts`. */
  getJobHolds(jobId: string): Promise<JobHolds | null> {
    return Promise.try(() => {
      const job = this.#store.findJob(jobId);
      return job ? jobHolds(this.#store, this.#store.task(job.task), job) : null;
    });
  }

  /** Last taken and last finished per task, from the newest `depth` stream entries. */
  getTaskActivity(tasks: readonly string[], depth: number): Promise<Map<string, TaskActivity>> {
    return Promise.resolve(
      new Map(
        tasks.map((task) => [task, taskActivity(this.#store.tasks.get(task)?.stream ?? [], depth)]),
      ),
    );
  }

  /** What the task's stream says of its queue's drain since `since`; see `drain_scan.ts`. */
  scanDrain(task: string, since: number, depth: number): Promise<DrainScan> {
    return Promise.resolve(drainScan(this.#store.tasks.get(task)?.stream ?? [], since, depth));
  }

  /** Each task's re-runs by taskora's stall check since `since`, as Redis counts them. */
  getTaskReruns(tasks: readonly string[], since: number): Promise<Map<string, number>> {
    return Promise.resolve(
      new Map(
        tasks.map((task) => [task, rerunsOf(this.#store.tasks.get(task)?.stream ?? [], since)]),
      ),
    );
  }

  /** The active jobs' count and the locks of the `limit` claimed last. */
  getActiveLocks(task: string, limit: number): Promise<ActiveLocks> {
    return Promise.try(() => {
      const queue = queueOf(this.#store, task);
      const liveness = taskLiveness(this.#store, queue, queue.active.slice(0, limit));
      return { active: queue.active.length, locks: liveness.known ? liveness.locks : [] };
    });
  }

  /** The scheduler leader lock (the simulator's scheduler holds it while it runs). */
  getSchedulerLeadership(): Promise<SchedulerLeadership> {
    return Promise.resolve(schedulerLeadership(this.#store));
  }
}
