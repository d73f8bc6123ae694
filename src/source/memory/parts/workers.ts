/**
 * The memory source's view of its workers: job locks and stalled jobs,
 * the active jobs' locks, the scheduler's leader (no migration lock: the
 * store has none), and what holds a job back.
 *
 * @module
 */

import type { JobHolds } from "../../../contract/diagnosis.ts";
import type { LockAnswers, LockQuery } from "../../types.ts";
import { jobHolds } from "../diagnosis.ts";
import { schedulerLeadership, taskLiveness } from "../liveness.ts";
import type { MemoryStore } from "../store.ts";
import { queueOf } from "./reads.ts";

/** Workers and locks, as the store holds them. */
export class MemoryWorkers {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** The locks the store keeps, as `read` asks; see `liveness.ts`. */
  async readLocks<R extends LockQuery>(read: R): Promise<LockAnswers[R["kind"]]> {
    return await Promise.try(() => this.#read(read)) as LockAnswers[R["kind"]];
  }

  #read(read: LockQuery): LockAnswers[LockQuery["kind"]] {
    switch (read.kind) {
      case "jobs":
        return taskLiveness(this.#store, queueOf(this.#store, read.task), read.jobIds);
      case "active": {
        const queue = queueOf(this.#store, read.task);
        const liveness = taskLiveness(this.#store, queue, queue.active.slice(0, read.limit));
        return { active: queue.active.length, locks: liveness.known ? liveness.locks : [] };
      }
      case "scheduler":
        // The simulator's scheduler holds it while it runs.
        return schedulerLeadership(this.#store);
      case "migration":
        return null;
    }
  }

  /** What holds a job back; see `diagnosis.ts`. */
  getJobHolds(jobId: string): Promise<JobHolds | null> {
    return Promise.try(() => {
      const job = this.#store.findJob(jobId);
      return job ? jobHolds(this.#store, this.#store.task(job.task), job) : null;
    });
  }
}
