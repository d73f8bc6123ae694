/**
 * Finding a job in the history by its id alone: the history keeps a job
 * under its task, and a job page or the job-ID box knows only the id. Asked
 * only once taskora holds no job of that id, it reads the job's summary
 * under each task the caller may read, all at once: one read per task.
 *
 * @module
 */

import type { TaskFilter } from "../source/types.ts";
import type { HistoryStore } from "./store.ts";
import type { JobSummary } from "./summary.ts";

/**
 * The summary of job `id` under the first of `tasks` (those `accept` lets
 * through) that holds one, or null.
 */
export async function findSummary(
  store: HistoryStore,
  tasks: readonly string[],
  id: string,
  accept?: TaskFilter,
): Promise<JobSummary | null> {
  const readable = accept === undefined
    ? tasks
    : (await Promise.all(tasks.map(async (task) => await accept(task) && task)))
      .filter((task): task is string => task !== false);
  const found = await Promise.all(readable.map((task) => store.summary(task, id)));
  return found.find((summary) => summary !== null) ?? null;
}
