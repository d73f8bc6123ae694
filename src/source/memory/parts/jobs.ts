/**
 * The memory source's job reads: a state's page, a search slice, one job
 * with its logs, a search by the start of an id, what the history records of a job.
 *
 * @module
 */

import { acceptedJobs } from "../../accepted_jobs.ts";
import { eventsTrimmedBefore } from "../../trimmed_events.ts";
import {
  JOB_DETAIL_LOGS,
  type JobDetail,
  type JobFilter,
  type JobMatch,
  type JobPage,
  type JobRecord,
  type JobRef,
  type JobState,
  type LogPage,
  type SearchPosition,
  type SearchSlice,
  type TaskFilter,
} from "../../types.ts";
import type { JobFields, JobRef as RecordedJobRef } from "../../../history/recorder.ts";
import { recordedFields } from "../recorded_fields.ts";
import { searchQueue } from "../search.ts";
import type { MemoryStore } from "../store.ts";
import { copyLogs, idsInState, queueOf, toRecord } from "./reads.ts";

/** Jobs read from the store. */
export class MemoryJobs {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** What the history recorder keeps of each job (null: the store no longer holds it). */
  readJobFields(jobs: readonly RecordedJobRef[], payloads: boolean): Promise<(JobFields | null)[]> {
    return Promise.resolve(jobs.map(({ task, jobId }) => {
      const job = this.#store.tasks.get(task)?.jobs.get(jobId);
      return job ? recordedFields(job, payloads) : null;
    }));
  }

  /**
   * One page of jobs: waiting (the wait list, then the prioritized set) and active in
   * run order, delayed and retrying by run time, finished newest first.
   */
  listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage> {
    return Promise.try(() => {
      const queue = queueOf(this.#store, task);
      const to = offset + limit;
      const jobs: JobRecord[] = [];
      let total = 0;
      for (const id of idsInState(queue, state)) {
        if (total >= offset && total < to) {
          const job = queue.jobs.get(id);
          // A member whose hash is gone still counts, as ZCARD / LLEN would.
          if (job) jobs.push(toRecord(job));
        }
        total++;
      }
      return { jobs, total };
    });
  }

  /** One slice of a job search; see `search.ts`. */
  searchJobs(
    task: string,
    state: JobState,
    filter: JobFilter,
    position: SearchPosition | null,
    want: number,
  ): Promise<SearchSlice> {
    return Promise.try(() => {
      const queue = queueOf(this.#store, task);
      return searchQueue(queue, state, idsInState(queue, state), toRecord, filter, position, want);
    });
  }

  /** The jobs' states now, null for one gone. */
  getJobStates(jobs: readonly JobRef[]): Promise<(JobState | null)[]> {
    return Promise.resolve(
      jobs.map(({ id, task }) => this.#store.tasks.get(task)?.jobs.get(id)?.state ?? null),
    );
  }

  /** The task holding the job, or null. */
  findJobTask(jobId: string): Promise<string | null> {
    return Promise.resolve(this.#store.findJob(jobId)?.task ?? null);
  }

  /** A job with its newest logs, or null. */
  getJob(jobId: string): Promise<JobDetail | null> {
    const job = this.#store.findJob(jobId);
    if (!job) return Promise.resolve(null);
    const logs = copyLogs(job.logs.slice(-JOB_DETAIL_LOGS));
    const queue = this.#store.task(job.task);
    const [oldest] = queue.stream;
    const trimmed = eventsTrimmedBefore(job.id, job.createdAt, {
      oldest: oldest ? { at: oldest.at, jobId: oldest.jobId, event: oldest.event } : null,
      trimmed: queue.streamTrimmed,
    });
    return Promise.resolve({
      ...toRecord(job),
      logs,
      logCount: job.logs.length,
      eventsTrimmedBefore: trimmed,
    });
  }

  /** A page of a job's log, oldest first, or null. */
  getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null> {
    const job = this.#store.findJob(jobId);
    if (!job) return Promise.resolve(null);
    const logs = copyLogs(job.logs.slice(offset, offset + limit));
    return Promise.resolve({ logs, total: job.logs.length });
  }

  /**
   * Jobs whose id starts with `prefix`, sorted by id, with their state:
   * every job of the store is looked at (it holds a bounded number, see
   * `retention`).
   */
  async findJobsByIdPrefix(
    prefix: string,
    limit: number,
    accept?: TaskFilter,
  ): Promise<JobMatch[]> {
    const found: JobMatch[] = [];
    for (const queue of this.#store.tasks.values()) {
      for (const [id, job] of queue.jobs) {
        if (id.startsWith(prefix)) found.push({ id, task: queue.name, state: job.state });
      }
    }
    found.sort((a, b) => (a.id < b.id ? -1 : 1));
    return await acceptedJobs(found, limit, accept);
  }
}
