/**
 * The task holding a job, by its id alone: what a permission asked per
 * task, or a read kept per task (the history), needs of a route that names
 * only the job.
 *
 * @module
 */

import type { TaskSource } from "./types.ts";

/** How to find the task holding a job on `source`: its own lookup, or else its job read. */
export function jobTaskOf(source: TaskSource): (jobId: string) => Promise<string | null> {
  if (source.findJobTask) return source.findJobTask.bind(source);
  return async (jobId) => (await source.getJob(jobId))?.task ?? null;
}
