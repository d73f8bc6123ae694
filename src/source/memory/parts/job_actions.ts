/**
 * The memory source's actions on jobs: retry, run again, cancel, clean,
 * bulk steps, through the store's transitions (`../job_actions.ts`,
 * `../bulk.ts`).
 *
 * @module
 */

import type {
  BulkAction,
  BulkIdSelector,
  BulkStateSelector,
  BulkStep,
  BulkStepResult,
  CleanOptions,
  FinishedState,
  JobActionResult,
  RerunResult,
  RetryOptions,
} from "../../types.ts";
import * as bulk from "../bulk.ts";
import * as jobActions from "../job_actions.ts";
import type { MemoryStore } from "../store.ts";
import { countState, queueOf } from "./reads.ts";

/** Actions on jobs, on the store. */
export class MemoryJobActions {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** Sends a failed (or cancelled) job back to waiting, attempt 1, as a fresh dispatch. */
  retryJob(jobId: string, options: RetryOptions = {}): Promise<JobActionResult> {
    const data = "data" in options ? { value: options.data } : undefined;
    return Promise.try(() => jobActions.retryJob(this.#store, jobId, options.from, data));
  }

  /** Dispatches a new job of the job's task with its data. */
  rerunJob(jobId: string): Promise<RerunResult> {
    return Promise.try(() => jobActions.rerunJob(this.#store, jobId));
  }

  /** Cancels a waiting, delayed or retrying job, or flags an active one for its worker. */
  cancelJob(jobId: string, reason?: string): Promise<JobActionResult> {
    return Promise.try(() => jobActions.cancelJob(this.#store, jobId, reason));
  }

  /** Deletes finished jobs of a state that finished more than `olderThanMs` ago (`dryRun`: counts them). */
  async cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
    options: CleanOptions = {},
  ): Promise<{ removed: number }> {
    if (options.dryRun) {
      return { removed: jobActions.countCleanable(this.#store, task, state, olderThanMs) };
    }
    return { removed: await jobActions.cleanJobs(this.#store, task, state, olderThanMs) };
  }

  /** How many jobs a bulk action would act on now. */
  countBulk(action: BulkAction, selector: BulkIdSelector | BulkStateSelector): Promise<number> {
    return Promise.try(() => {
      const queue = queueOf(this.#store, selector.task);
      return "ids" in selector
        ? bulk.countNamed(queue, action, selector)
        : countState(queue, selector.state);
    });
  }

  /** One step of a bulk action; see `bulk.ts`. */
  bulkStep(
    task: string,
    action: BulkAction,
    step: BulkStep,
    reason?: string,
  ): Promise<BulkStepResult> {
    return Promise.try(() =>
      bulk.bulkStep(this.#store, queueOf(this.#store, task), action, step, reason)
    );
  }
}
