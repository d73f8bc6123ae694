/**
 * The memory source's dead letters: failed jobs, newest first, grouped by
 * error, and retried a batch at a time.
 *
 * @module
 */

import { groupDeadLetters, inGroup } from "../../dead_letters.ts";
import type { BeforeBatch, DeadLetterGroup, FailedScope, JobPage } from "../../types.ts";
import * as jobActions from "../job_actions.ts";
import type { MemoryStore, StoredJob } from "../store.ts";
import { failedOf, toRecord } from "./reads.ts";

/** Failed jobs of the store. */
export class MemoryDeadLetters {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /**
   * Failed jobs (of one error group, with `pattern`), most recently failed
   * first (ties: task name, then id descending).
   */
  listDeadLetters(
    offset: number,
    limit: number,
    task?: string,
    pattern?: string,
  ): Promise<JobPage> {
    return Promise.try(() => {
      const failed = failedOf(this.#store, task);
      const entries = pattern === undefined ? failed : inGroup(failed, pattern);
      const jobs = entries.slice(offset, offset + limit)
        .map((entry) => this.#store.tasks.get(entry.task)?.jobs.get(entry.id))
        .filter((job): job is StoredJob => job !== undefined)
        .map(toRecord);
      return { jobs, total: entries.length };
    });
  }

  /** Failed jobs grouped by error pattern, most frequent first. */
  groupDeadLetters(task?: string): Promise<DeadLetterGroup[]> {
    return Promise.try(() => groupDeadLetters(failedOf(this.#store, task)));
  }

  /**
   * Sends the failed jobs of `scope` back to waiting, 100 per batch: every
   * failed job of one task (or of every task), or of one error group.
   */
  async retryAllFailed(
    scope: FailedScope = {},
    beforeBatch?: BeforeBatch,
  ): Promise<{ retried: number }> {
    const { task, pattern } = scope;
    if (pattern === undefined) {
      const tasks = task === undefined ? [...this.#store.tasks.keys()].sort() : [task];
      return { retried: await jobActions.retryAllFailed(this.#store, tasks, beforeBatch) };
    }
    const members = inGroup(failedOf(this.#store, task), pattern);
    let retried = 0;
    for (let start = 0; start < members.length; start += jobActions.RETRY_BATCH) {
      if (beforeBatch && !await beforeBatch()) break;
      // A job retried meanwhile (between two batches) is skipped, as on Redis.
      for (const { id } of members.slice(start, start + jobActions.RETRY_BATCH)) {
        if (this.#store.findJob(id)?.state !== "failed") continue;
        jobActions.retryJob(this.#store, id, ["failed"]);
        retried++;
      }
    }
    return { retried };
  }
}
