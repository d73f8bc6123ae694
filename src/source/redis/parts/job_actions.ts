/**
 * The Redis source's actions on jobs: retry, run again, cancel, clean, bulk steps, each one
 * script on the job's task's slot (see the files each method names).
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
import { RETRYABLE_STATES } from "../../types.ts";
import { cancelJob } from "../cancel.ts";
import { cleanJobs, cleanRange, countCleanable } from "../clean.ts";
import { bulkStep, countNamed } from "../bulk.ts";
import { countDelayedState } from "../jobs.ts";
import { rerunJob } from "../rerun.ts";
import { retryJob } from "../retry.ts";
import { getStats } from "../stats.ts";
import type { RedisContext } from "../context.ts";

/** Actions on jobs, in Redis. */
export class RedisJobActions {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /** Sends a failed or cancelled job back to waiting (its data replaced, if given); see `retry.ts`. */
  async retryJob(jobId: string, options: RetryOptions = {}): Promise<JobActionResult> {
    await this.#redis.ready();
    const task = await this.#redis.taskOfJob(jobId);
    const result = await retryJob(
      this.#redis.connection,
      task,
      jobId,
      options.from ?? RETRYABLE_STATES,
      this.#redis.prefix,
      "data" in options ? { value: options.data } : undefined,
    );
    this.#redis.deadLetters.invalidate();
    return result;
  }

  /** Dispatches a new job with a job's data; see `rerun.ts`. */
  async rerunJob(jobId: string): Promise<RerunResult> {
    await this.#redis.ready();
    return await rerunJob(
      this.#redis.connection,
      await this.#redis.taskOfJob(jobId),
      jobId,
      this.#redis.prefix,
    );
  }

  /** Cancels a job, or signals its worker when it is active; see `cancel.ts`. */
  async cancelJob(jobId: string, reason?: string): Promise<JobActionResult> {
    await this.#redis.ready();
    const task = await this.#redis.taskOfJob(jobId);
    const result = await cancelJob(this.#redis.connection, task, jobId, reason, this.#redis.prefix);
    if (result.from === "retrying") this.#redis.split.forget(task, jobId);
    return result;
  }

  /** Removes finished jobs older than `olderThanMs` (with `dryRun`: counts them); see `clean.ts`. */
  async cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
    options: CleanOptions = {},
  ): Promise<{ removed: number }> {
    await this.#redis.ready();
    const range = cleanRange(task, state, olderThanMs, this.#redis.prefix);
    if (options.dryRun) return { removed: await countCleanable(this.#redis.connection, range) };
    const removed = await cleanJobs(this.#redis.connection, range);
    if (state === "failed") this.#redis.deadLetters.invalidate();
    return { removed };
  }

  /** How many jobs a bulk action would act on now; see `bulk.ts`. */
  async countBulk(
    action: BulkAction,
    selector: BulkIdSelector | BulkStateSelector,
  ): Promise<number> {
    await this.#redis.ready();
    if ("ids" in selector) {
      return await countNamed(this.#redis.connection, action, selector, this.#redis.prefix);
    }
    const { task, state } = selector;
    if (state === "delayed" || state === "retrying") {
      return await countDelayedState(this.#redis.connection, task, state, this.#redis.prefix);
    }
    this.#redis.lookedAt(this.#redis.countsWatch);
    const retrying = (name: string) => this.#redis.retrying(name).retrying;
    const stats = await getStats(this.#redis.connection, [task], retrying, this.#redis.prefix);
    return stats.get(task)![state];
  }

  /** One atomic step of a bulk action; see `bulk.ts`. */
  async bulkStep(
    task: string,
    action: BulkAction,
    step: BulkStep,
    reason?: string,
  ): Promise<BulkStepResult> {
    await this.#redis.ready();
    const result = await bulkStep(
      this.#redis.connection,
      task,
      action,
      step,
      reason,
      this.#redis.prefix,
    );
    for (const { id, from } of result.done) {
      if (from === "retrying") this.#redis.split.forget(task, id);
      if (from === "failed") this.#redis.deadLetters.invalidate();
    }
    return result;
  }
}
