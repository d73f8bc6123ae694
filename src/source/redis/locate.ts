/**
 * Finding which task a job id belongs to, before an action runs its
 * one-slot script on that task.
 *
 * @module
 */

import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

/**
 * The task whose keyspace holds a hash for `jobId`, or null. One pipelined
 * round trip: `HGET <task job key> state` for every task (settled: an id
 * that names another kind of key, e.g. `wait`, answers WRONGTYPE and is
 * skipped). The action's script checks the state again, atomically.
 */
export async function locateJob(
  connection: RedisConnection,
  tasks: readonly string[],
  jobId: string,
  prefix?: string,
): Promise<string | null> {
  if (jobId === "" || tasks.length === 0) return null;
  const replies = await connection.pipelineSettled(
    tasks.map((task) => ["HGET", `${taskKeys(task, prefix).jobPrefix}${jobId}`, "state"]),
  );
  const index = replies.findIndex((reply) => typeof reply === "string");
  return index < 0 ? null : tasks[index];
}
