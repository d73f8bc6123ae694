/**
 * Finding which task a job id belongs to: before an action runs its
 * one-slot script on that task, and before a read fetches the one job.
 *
 * @module
 */

import { taskKeys } from "../wire/keys.ts";
import type { Command, RedisConnection } from "./client.ts";

/**
 * What counts as the job: `"state"`, a hash with a `state` field (actions,
 * whose scripts need one); `"hash"`, any hash (reads, which show a hash that
 * taskora's enqueue left without a state as waiting).
 */
export type JobProbe = "state" | "hash";

const PROBES: Record<
  JobProbe,
  { command: (jobKey: string) => Command; found: (reply: unknown) => boolean }
> = {
  state: {
    command: (jobKey) => ["HGET", jobKey, "state"],
    found: (reply) => typeof reply === "string",
  },
  hash: { command: (jobKey) => ["TYPE", jobKey], found: (reply) => reply === "hash" },
};

/**
 * The first task whose keyspace holds the job `jobId`, or null. One
 * pipelined round trip of one O(1) command per task: `HGET <job key> state`
 * or `TYPE <job key>` (settled: an id that names another kind of key, e.g.
 * `wait`, answers WRONGTYPE or another type and is skipped). An action's
 * script checks the state again, atomically.
 */
export async function locateJob(
  connection: RedisConnection,
  tasks: readonly string[],
  jobId: string,
  prefix?: string,
  probe: JobProbe = "state",
): Promise<string | null> {
  if (jobId === "" || tasks.length === 0) return null;
  const { command, found } = PROBES[probe];
  const replies = await connection.pipelineSettled(
    tasks.map((task) => command(`${taskKeys(task, prefix).jobPrefix}${jobId}`)),
  );
  const index = replies.findIndex(found);
  return index < 0 ? null : tasks[index];
}
