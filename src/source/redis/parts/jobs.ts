/**
 * The Redis source's job reads: a state's page, a search slice, one job with its logs, the
 * states of many, a search by the start of an id (among the ids served lately).
 *
 * @module
 */

import type {
  JobDetail,
  JobFilter,
  JobMatch,
  JobPage,
  JobRef,
  JobState,
  JobStateRead,
  LogPage,
  SearchPosition,
  SearchSlice,
  TaskFilter,
} from "../../types.ts";
import { getJob, getJobLogs, listJobs } from "../jobs.ts";
import { searchJobs } from "../search.ts";
import { locateJob } from "../locate.ts";
import { withStates } from "../job_states.ts";
import { acceptedJobs } from "../../accepted_jobs.ts";
import { readJobStates } from "../job_state_reads.ts";
import { taskKeys } from "../../wire/keys.ts";
import { readRecordedFields } from "../history_reads.ts";
import type { JobFields, JobRef as HistoryJobRef } from "../../../history/recorder.ts";
import type { RedisContext } from "../context.ts";

/** Jobs read from Redis. */
export class RedisJobs {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /** A page of a task's jobs in one state; see `jobs.ts` for the cost. */
  async listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage> {
    await this.#redis.ready();
    // The page is read; its total is the kept split's, as the task's counts say.
    if (state === "delayed" || state === "retrying") this.#redis.lookedAt(this.#redis.countsWatch);
    const retrying = this.#redis.retrying(task).retrying;
    return this.#redis.served(
      await listJobs(
        this.#redis.connection,
        task,
        state,
        offset,
        limit,
        this.#redis.prefix,
        retrying,
      ),
    );
  }

  /** One slice of a job search; see `search.ts` for the cost. */
  async searchJobs(
    task: string,
    state: JobState,
    filter: JobFilter,
    position: SearchPosition | null,
    want: number,
  ): Promise<SearchSlice> {
    await this.#redis.ready();
    const slice = await searchJobs(
      this.#redis.connection,
      task,
      state,
      filter,
      position,
      want,
      this.#redis.prefix,
    );
    // Found jobs are served jobs: their short ids must be findable too. Not with a payload
    // condition: those candidates are what the prefilter saw in unredacted text.
    if (filter.payload === null) this.#redis.recentIds.note(slice.candidates.map((c) => c.job));
    return slice;
  }

  /** A job by id across all tasks, or null. */
  async getJob(jobId: string): Promise<JobDetail | null> {
    await this.#redis.ready();
    const job = await getJob(
      this.#redis.connection,
      await this.#redis.discovery.list(),
      jobId,
      this.#redis.prefix,
    );
    if (job) this.#redis.recentIds.note([job]);
    return job;
  }

  /** What the history records of each ending job: one pipeline (see `history_reads.ts`). */
  readJobFields(jobs: readonly HistoryJobRef[], payloads: boolean): Promise<(JobFields | null)[]> {
    return readRecordedFields(this.#redis.connection, jobs, payloads, this.#redis.prefix);
  }

  /**
   * The jobs' states: one `HGET state` each, a finished one trusted a minute
   * (`job_state_reads.ts`) and said when it was read.
   */
  async getJobStates(jobs: readonly JobRef[]): Promise<JobStateRead[]> {
    await this.#redis.connection.ready();
    const keys = jobs.map(({ id, task }) => `${taskKeys(task, this.#redis.prefix).jobPrefix}${id}`);
    const finished = this.#redis.finishedStates;
    const states = await readJobStates(this.#redis.connection, keys, finished);
    return states.map((state, i) => {
      const readAt = finished.readAt(keys[i]);
      return readAt === undefined ? { state } : { state, readAt };
    });
  }

  /** The task holding the job: one pipelined `TYPE` per task (see `locate.ts`). */
  async findJobTask(jobId: string): Promise<string | null> {
    await this.#redis.ready();
    return await locateJob(
      this.#redis.connection,
      await this.#redis.discovery.list(),
      jobId,
      this.#redis.prefix,
      "hash",
    );
  }

  /**
   * Jobs served lately whose id starts with `prefix`, matched in memory (see
   * `recent_job_ids.ts` for why not a SCAN), then their states in one
   * pipeline of two commands per job listed (`job_states.ts`).
   */
  async findJobsByIdPrefix(
    prefix: string,
    limit: number,
    accept?: TaskFilter,
  ): Promise<JobMatch[]> {
    const served = this.#redis.recentIds.find(prefix, this.#redis.recentIds.capacity);
    const listed = await acceptedJobs(served, limit, accept);
    await this.#redis.ready();
    return await withStates(this.#redis.connection, listed, this.#redis.prefix);
  }

  /** A page of a job's log, oldest first, or null when no task has the job. */
  async getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null> {
    await this.#redis.ready();
    const tasks = await this.#redis.discovery.list();
    return await getJobLogs(
      this.#redis.connection,
      tasks,
      jobId,
      offset,
      limit,
      this.#redis.prefix,
    );
  }
}
