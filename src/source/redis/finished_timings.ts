/**
 * The times of a task's newest finished jobs, for the wait and run
 * percentiles: two reads from the newest end of the completed and failed
 * sets (down to a finish time, for a sample kept up to date), then one
 * pipeline of HMGET over the `limit` newest of both.
 *
 * @module
 */

import type { FinishedTiming } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

/** Ids with their finish times, from a `ZRANGE … REV WITHSCORES` reply. */
function pairs(reply: string[]): { id: string; finishedAt: number }[] {
  const out: { id: string; finishedAt: number }[] = [];
  for (let i = 0; i + 1 < reply.length; i += 2) {
    out.push({ id: reply[i], finishedAt: Number(reply[i + 1]) });
  }
  return out;
}

/**
 * The newest `limit` finished jobs of the task (completed and failed
 * together, newest first) that finished at or after `since`, with their
 * times. Two round trips of O(log N + limit) each, whatever the sets hold;
 * a job whose hash is gone is left out.
 */
export async function getFinishedTimings(
  connection: RedisConnection,
  task: string,
  limit: number,
  since?: number,
  prefix?: string,
): Promise<FinishedTiming[]> {
  if (limit <= 0) return [];
  const keys = taskKeys(task, prefix);
  const newestOf = (key: string) => [
    "ZRANGE",
    key,
    "+inf",
    since === undefined ? "-inf" : String(since),
    "BYSCORE",
    "REV",
    "LIMIT",
    "0",
    String(limit),
    "WITHSCORES",
  ];
  const [completed, failed] = await connection.pipeline([
    newestOf(keys.completed),
    newestOf(keys.failed),
  ]) as [string[], string[]];
  const newest = [...pairs(completed), ...pairs(failed)]
    .sort((a, b) => b.finishedAt - a.finishedAt)
    .slice(0, limit);
  if (newest.length === 0) return [];
  const fields = await connection.pipeline(
    newest.map(({ id }) => ["HMGET", keys.jobPrefix + id, "ts", "delay", "processedOn"]),
  ) as (string | null)[][];
  const timings: FinishedTiming[] = [];
  newest.forEach(({ id, finishedAt }, i) => {
    const [ts, delay, processedOn] = fields[i];
    if (ts === null) return;
    timings.push({
      id,
      createdAt: Number(ts),
      delay: Number(delay) || 0,
      processedAt: processedOn === null ? null : Number(processedOn),
      finishedAt,
    });
  });
  return timings;
}
