/**
 * The App source's dead letters: failed jobs, read from the adapter's
 * failed lists, grouped by error, and retried through `deadLetters`.
 *
 * @module
 */

import { type DeadLetterEntry, groupDeadLetters, inGroup } from "../../source/dead_letters.ts";
import type { DeadLetterGroup, FailedScope, JobPage } from "../../source/types.ts";
import { type AppApi, SCAN_LIMIT } from "./app_api.ts";

/** Failed jobs, through the App's API and adapter. */
export class AppDeadLetters {
  readonly #api: AppApi;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  async #deadLetterEntries(task?: string): Promise<DeadLetterEntry[]> {
    const tasks = task !== undefined ? [task] : this.#api.tasks();
    const pages = await Promise.all(
      tasks.map(async (name) =>
        (await this.#api.adapter.listJobDetails(name, "failed", 0, SCAN_LIMIT)).map((
          { id, details },
        ) => ({
          id,
          task: name,
          error: details.fields.error || null,
          failedAt: Number(details.fields.finishedOn) || 0,
        }))
      ),
    );
    return pages.flat().sort((a, b) => b.failedAt - a.failedAt);
  }

  /** Failed jobs, most recently failed first. */
  async listDeadLetters(
    offset: number,
    limit: number,
    task?: string,
    pattern?: string,
  ): Promise<JobPage> {
    let entries = await this.#deadLetterEntries(task);
    if (pattern !== undefined) entries = inGroup(entries, pattern);
    const page = entries.slice(offset, offset + limit);
    const jobs = await Promise.all(page.map(async (e) => {
      const raw = await this.#api.adapter.getJobDetails(e.task, e.id);
      return raw ? this.#api.decode(e.task, e.id, raw) : null;
    }));
    return { jobs: jobs.filter((j) => j !== null), total: entries.length };
  }

  /** Failed jobs grouped by error. */
  async groupDeadLetters(task?: string): Promise<DeadLetterGroup[]> {
    return groupDeadLetters(await this.#deadLetterEntries(task));
  }

  /**
   * Every failed job of `scope` back to waiting (`deadLetters.retryAll`), or,
   * with a pattern, those of that error group one by one (`deadLetters.retry`).
   */
  async retryAllFailed(scope: FailedScope = {}): Promise<{ retried: number }> {
    const { task, pattern } = scope;
    if (pattern === undefined) {
      return { retried: await this.#api.app.deadLetters.retryAll(task ? { task } : undefined) };
    }
    let retried = 0;
    for (const entry of inGroup(await this.#deadLetterEntries(task), pattern)) {
      if (await this.#api.app.deadLetters.retry(entry.task, entry.id)) retried++;
    }
    return { retried };
  }
}
