/**
 * The memory source's actions on jobs: retry, run again, cancel, clean,
 * bulk steps, through the store's transitions (`../job_actions.ts`,
 * `../bulk.ts`).
 *
 * @module
 */

import {
  type BulkAction,
  type BulkIdSelector,
  type BulkStateSelector,
  type BulkStep,
  type BulkStepResult,
  type FinishedState,
  type JobActionResult,
  type RerunResult,
  RETRYABLE_STATES,
  type RetryableState,
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
  retryJob(
    jobId: string,
    from?: readonly RetryableState[],
  ): Promise<JobActionResult> {
    return Promise.try(() => jobActions.retryJob(this.#store, jobId, from));
  }

  /** Sends a failed or cancelled job back to waiting with new data. */
  retryJobWithData(jobId: string, data: unknown): Promise<JobActionResult> {
    return Promise.try(() =>
      jobActions.retryJob(this.#store, jobId, RETRYABLE_STATES, { value: data })
    );
  }

  /** Dispatches a new job of the job's task with its data. */
  rerunJob(jobId: string): Promise<RerunResult> {
    return Promise.try(() => jobActions.rerunJob(this.#store, jobId));
  }

  /** Cancels a waiting, delayed or retrying job, or flags an active one for its worker. */
  cancelJob(jobId: string, reason?: string): Promise<JobActionResult> {
    return Promise.try(() => jobActions.cancelJob(this.#store, jobId, reason));
  }

  /** Deletes finished jobs of a state that finished more than `olderThanMs` ago. */
  async cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
  ): Promise<{ removed: number }> {
    return { removed: await jobActions.cleanJobs(this.#store, task, state, olderThanMs) };
  }

  /** How many jobs a clean would remove now. */
  countCleanable(task: string, state: FinishedState, olderThanMs: number): Promise<number> {
    return Promise.try(() => jobActions.countCleanable(this.#store, task, state, olderThanMs));
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
