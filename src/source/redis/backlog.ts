/**
 * How many of a task's delayed and retrying jobs fall due after the drain
 * forecast's horizon (see `contract/forecast.ts`). The samples the forecast
 * reads are the board's own: `store/redis/backlog_samples.ts`.
 *
 * @module
 */

import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

/** Each task's delayed and retrying jobs due after `at`: one ZCOUNT per task, one round trip. */
export async function countDueAfter(
  connection: RedisConnection,
  tasks: readonly string[],
  at: number,
  prefix?: string,
): Promise<Map<string, number>> {
  const replies = await connection.pipeline(
    tasks.map((task) => ["ZCOUNT", taskKeys(task, prefix).delayed, `(${at}`, "+inf"]),
  );
  return new Map(tasks.map((task, i) => [task, Number(replies[i])]));
}
