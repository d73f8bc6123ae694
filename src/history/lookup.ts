/**
 * Finding a job in the history by its id alone: the history keeps a job
 * under its task, and a job page or the job-ID box knows only the id. Asked
 * only once taskora holds no job of that id, it reads the tasks the
 * history's index by id names (one read, whatever the number of tasks),
 * then the summary under the first the caller may read.
 *
 * @module
 */

import type { TaskFilter } from "../source/types.ts";
import type { HistoryStore } from "./store.ts";
import type { JobSummary } from "./summary.ts";

/**
 * The summary of job `id` under the first task holding one that `accept`
 * lets through, or null: a task `accept` refuses is not read.
 */
export async function findSummary(
  store: HistoryStore,
  id: string,
  accept?: TaskFilter,
): Promise<JobSummary | null> {
  for (const task of await store.tasksOfJob(id)) {
    if (accept && !await accept(task)) continue;
    const summary = await store.summary(task, id);
    if (summary !== null) return summary;
  }
  return null;
}
