/**
 * The state now of jobs known by id and task (those a prefix lookup found
 * among the ids the source served lately): one pipelined round trip of two
 * O(1) commands per job, `TYPE` and `HGET state`, whatever the tasks. Each
 * command names one job's key, so each runs in its task's slot on a Cluster.
 *
 * @module
 */

import type { JobMatch } from "../../contract/job_lookup.ts";
import { decodeJobState } from "../wire/decode.ts";
import { taskKeys } from "../wire/keys.ts";
import type { JobRef } from "../types.ts";
import type { Command, RedisConnection } from "./client.ts";

/**
 * `jobs` with their state, in order; a job whose hash is gone (removed,
 * trimmed, expired since it was served) is left out. A hash without a
 * `state` is waiting, as a read of the job shows it.
 */
export async function withStates(
  connection: RedisConnection,
  jobs: readonly JobRef[],
  prefix?: string,
): Promise<JobMatch[]> {
  if (jobs.length === 0) return [];
  const commands = jobs.flatMap(({ id, task }): Command[] => {
    const jobKey = `${taskKeys(task, prefix).jobPrefix}${id}`;
    return [["TYPE", jobKey], ["HGET", jobKey, "state"]];
  });
  // Settled: an id that names a key of another kind answers WRONGTYPE, and is no job.
  const replies = await connection.pipelineSettled(commands);
  return jobs.flatMap(({ id, task }, index) => {
    const [type, state] = replies.slice(index * 2, index * 2 + 2);
    if (type !== "hash") return [];
    return [{ id, task, state: decodeJobState(typeof state === "string" ? state : undefined) }];
  });
}
