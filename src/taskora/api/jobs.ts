/**
 * The App source's job reads: a state's page, one job with its logs, a
 * page of its log. The API has no search by the start of an id.
 *
 * @module
 */

import {
  JOB_DETAIL_LOGS,
  type JobDetail,
  type JobMatch,
  type JobPage,
  type JobState,
  type LogPage,
} from "../../source/types.ts";
import { decodeLogs } from "../../source/wire/decode.ts";
import type { AppApi } from "./app_api.ts";

/** Jobs read through the App's adapter. */
export class AppJobs {
  readonly #api: AppApi;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  /** A page of a task's jobs in one state. */
  async listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage> {
    if (state === "delayed" || state === "retrying") {
      const jobs = (await this.#api.delayedSplit(task))[state];
      return { jobs: jobs.slice(offset, offset + limit), total: jobs.length };
    }
    const [stats, page] = await Promise.all([
      this.#api.adapter.getQueueStats(task),
      this.#api.adapter.listJobDetails(task, state, offset, limit),
    ]);
    return {
      jobs: page.map(({ id, details }) => this.#api.decode(task, id, details)),
      total: stats[state],
    };
  }

  /** A job by id, with its newest log entries. */
  async getJob(jobId: string): Promise<JobDetail | null> {
    const found = await this.#api.raw(jobId);
    if (!found) return null;
    const logs = decodeLogs(found.raw.logs);
    return {
      ...this.#api.decode(found.task, jobId, found.raw),
      logs: logs.slice(-JOB_DETAIL_LOGS),
      logCount: logs.length,
    };
  }

  /** A page of a job's log, oldest first. */
  async getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null> {
    const found = await this.#api.raw(jobId);
    if (!found) return null;
    const logs = decodeLogs(found.raw.logs);
    return { logs: logs.slice(offset, offset + limit), total: logs.length };
  }

  /** The API has no search by the start of an id: nothing is found (whole ids work). */
  findJobsByIdPrefix(): Promise<JobMatch[]> {
    return Promise.resolve([]);
  }
}
