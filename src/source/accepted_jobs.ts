/**
 * The jobs of a lookup that its task filter lets through: how a source
 * applies {@link TaskFilter} before counting the limit, so a task the user
 * may not search neither fills the list nor says that more jobs match.
 *
 * @module
 */

import type { JobRef, TaskFilter } from "./types.ts";

/**
 * The first `limit` of `jobs` whose task `accept` takes (all of them without
 * `accept`), in order; `accept` is asked once per task, and only until the
 * list is full.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { acceptedJobs } from "./accepted_jobs.ts";
 * const jobs = [{ id: "a1", task: "billing" }, { id: "a2", task: "mail" }, { id: "a3", task: "mail" }];
 * const notBilling = (task: string) => Promise.resolve(task !== "billing");
 * assert.deepEqual(await acceptedJobs(jobs, 1, notBilling), [{ id: "a2", task: "mail" }]);
 * assert.equal((await acceptedJobs(jobs, 5)).length, 3);
 * ```
 */
export async function acceptedJobs<J extends JobRef>(
  jobs: Iterable<J>,
  limit: number,
  accept?: TaskFilter,
): Promise<J[]> {
  if (accept === undefined) return [...jobs].slice(0, limit);
  const taken: J[] = [];
  const answers = new Map<string, boolean>();
  for (const job of jobs) {
    if (taken.length >= limit) break;
    let accepted = answers.get(job.task);
    if (accepted === undefined) {
      accepted = await accept(job.task);
      answers.set(job.task, accepted);
    }
    if (accepted) taken.push(job);
  }
  return taken;
}
