/**
 * One job by its id, or by the start of it: what `GET /jobs/{id}` opens.
 *
 * @module
 */

import { MIN_ID_PREFIX } from "../contract/job_lookup.ts";
import { BoardError } from "../errors.ts";
import { jobNotFound } from "../source/refusals.ts";
import type { JobDetail, TaskFilter, TaskSource } from "../source/types.ts";

/** How many candidates an ambiguous prefix names. */
const CANDIDATES = 5;

/**
 * The job whose id is `id`, else the one job whose id starts with it (see
 * {@link TaskSource.findJobsByIdPrefix} for which jobs a prefix can find),
 * among the tasks `accept` lets through (the user's to search: a start of
 * an id never names, nor opens, a job of another task). `JOB_NOT_FOUND`
 * when none is; `INVALID_PARAM` naming the candidates when several are.
 */
export async function findJob(
  source: TaskSource,
  id: string,
  accept?: TaskFilter,
): Promise<JobDetail> {
  const exact = await source.getJob(id);
  if (exact) return exact;
  if (id.length < MIN_ID_PREFIX) throw jobNotFound(id);
  const found = await source.findJobsByIdPrefix(id, CANDIDATES + 1, accept);
  if (found.length > 1) {
    const names = found.slice(0, CANDIDATES).map((job) => `${job.id} (${job.task})`).join(", ");
    const more = found.length > CANDIDATES ? ", and more" : "";
    throw new BoardError(
      "INVALID_PARAM",
      `"${id}" is the start of several job IDs: ${names}${more}. Type more of the ID.`,
      { param: "jobId" },
    );
  }
  const job = found.length === 1 ? await source.getJob(found[0].id) : null;
  if (!job) {
    throw new BoardError(
      "JOB_NOT_FOUND",
      `Job "${id}" not found: no job has this ID, and none the board listed recently starts with it`,
    );
  }
  return job;
}
