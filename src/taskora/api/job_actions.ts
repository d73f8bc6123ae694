/**
 * The App source's actions on jobs: retry (failed jobs only: the API
 * cannot retry a cancelled one nor replace a job's data), run again, cancel,
 * clean.
 *
 * @module
 */

import { BoardError } from "../../errors.ts";
import { cannotCancel, cannotRetry, jobNotFound } from "../../source/refusals.ts";
import {
  type CleanOptions,
  type FinishedState,
  type JobActionResult,
  type RerunResult,
  RETRYABLE_STATES,
  type RetryOptions,
} from "../../source/types.ts";
import { decodeJobState } from "../../source/wire/decode.ts";
import { rerunThroughApp } from "../trigger.ts";
import { type AppApi, CLEAN_BATCH, FINISHED_ADAPTER, SCAN_LIMIT } from "./app_api.ts";
import type { AppJobs } from "./jobs.ts";

/** Actions on jobs, through the App's API and adapter. */
export class AppJobActions {
  readonly #api: AppApi;
  readonly #jobs: AppJobs;

  /** Reads and steers through `api`. */
  constructor(api: AppApi, jobs: AppJobs) {
    this.#api = api;
    this.#jobs = jobs;
  }

  /**
   * Retries a failed job (`deadLetters.retry`); a cancelled one is refused
   * (the API cannot), and so is new data: the App's API re-dispatches a job
   * as it is and has no way to replace its data.
   */
  async retryJob(jobId: string, options: RetryOptions = {}): Promise<JobActionResult> {
    const { from = RETRYABLE_STATES } = options;
    const task = await this.#api.taskOf(jobId);
    if (task === null) throw jobNotFound(jobId);
    if ("data" in options) {
      throw new BoardError(
        "INVALID_STATE",
        `Job ${jobId} was not retried: through the App's API a job's data cannot be replaced; ` +
          "retry it as it is, or run it again (a new job with the same data)",
      );
    }
    const state = await this.#api.adapter.getState(task, jobId) ?? undefined;
    if (state !== "failed" || !from.includes("failed")) {
      throw state === "cancelled" && from.includes("cancelled")
        ? new BoardError(
          "INVALID_STATE",
          `Job ${jobId} is cancelled; through the App's API only failed jobs can be retried`,
        )
        : cannotRetry(jobId, state, from);
    }
    if (!await this.#api.app.deadLetters.retry(task, jobId)) throw cannotRetry(jobId, "gone", from);
    return { id: jobId, task, from: "failed", to: "waiting" };
  }

  /** Runs a job again through the App (`task.dispatch`); see `trigger.ts`. */
  async rerunJob(jobId: string): Promise<RerunResult> {
    const job = await this.#jobs.getJob(jobId);
    if (!job) throw jobNotFound(jobId);
    return await rerunThroughApp(this.#api.app, job);
  }

  /** Cancels a job through the adapter (an active one is flagged for its worker). */
  async cancelJob(jobId: string, reason?: string): Promise<JobActionResult> {
    const task = await this.#api.taskOf(jobId);
    if (task === null) throw jobNotFound(jobId);
    const from = decodeJobState(await this.#api.adapter.getState(task, jobId) ?? undefined);
    const outcome = await this.#api.adapter.cancel(task, jobId, reason);
    if (outcome === "not_cancellable") throw cannotCancel(jobId, from);
    return { id: jobId, task, from, to: outcome === "flagged" ? "cancelling" : "cancelled" };
  }

  /**
   * Removes finished jobs older than `olderThanMs` (`adapter.cleanJobs`, in
   * batches); with `dryRun`, counts those among the adapter's listed ones.
   */
  async cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
    options: CleanOptions = {},
  ): Promise<{ removed: number }> {
    const before = Date.now() - olderThanMs;
    if (options.dryRun) return { removed: await this.#countCleanable(task, state, before) };
    let removed = 0;
    for (;;) {
      const n = await this.#api.adapter.cleanJobs(
        task,
        FINISHED_ADAPTER[state],
        before,
        CLEAN_BATCH,
      );
      removed += n;
      if (n < CLEAN_BATCH) return { removed };
    }
  }

  /** How many jobs a clean would remove now: those finished at or before `before`. */
  async #countCleanable(task: string, state: FinishedState, before: number): Promise<number> {
    const jobs = await this.#api.adapter.listJobDetails(
      task,
      FINISHED_ADAPTER[state],
      0,
      SCAN_LIMIT,
    );
    return jobs.filter(({ details }) => (Number(details.fields.finishedOn) || 0) <= before).length;
  }
}
