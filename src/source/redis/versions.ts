/**
 * How a task's jobs that have yet to run are spread over task versions.
 *
 * @module
 */

import type { VersionCounts, VersionDistribution } from "../types.ts";
import { decodeVersion } from "../wire/decode.ts";
import { taskKeys } from "../wire/keys.ts";
import type { Command, RedisConnection } from "./client.ts";
import { CHUNK_SIZE, COUNT_VERSIONS } from "./scripts.ts";

/** Finished jobs looked at for the latest version. */
const RECENT_FINISHED = 50;

/**
 * Counts by `_v` of waiting + active jobs (`queue`), delayed and retrying
 * jobs, and the highest `_v` among them and the newest 50 completed and 50
 * failed jobs. Two round trips: the sizes, then every 1,000-member chunk of
 * every structure as one script call, all in one pipeline (Redis never runs
 * a script over more than 1,000 jobs). Redis work is O(jobs yet to run).
 * Versions are counted by their number, as a job's is read (`"02"` is 2;
 * none or not a number is 1), not by the text stored.
 */
export async function getVersionDistribution(
  connection: RedisConnection,
  task: string,
  prefix?: string,
): Promise<VersionDistribution> {
  const keys = taskKeys(task, prefix);
  const [wait, prioritized, active, delayed] = (await connection.pipeline([
    ["LLEN", keys.wait],
    ["ZCARD", keys.prioritized],
    ["LLEN", keys.active],
    ["ZCARD", keys.delayed],
  ])) as number[];

  const count = (key: string, mode: string, start: number, stop: number, split = false) => ({
    script: COUNT_VERSIONS,
    keys: [key],
    args: [keys.jobPrefix, mode, start, stop, split ? "1" : "0"],
  });
  const chunks = (key: string, mode: string, size: number, split = false): Command[] => {
    const calls: Command[] = [];
    for (let start = 0; start < size; start += CHUNK_SIZE) {
      calls.push(count(key, mode, start, start + CHUNK_SIZE - 1, split));
    }
    return calls;
  };
  const queueCalls = [
    ...chunks(keys.wait, "list", wait),
    ...chunks(keys.prioritized, "zset", prioritized),
    ...chunks(keys.active, "list", active),
  ];
  const delayedCalls = chunks(keys.delayed, "zset", delayed, true);
  const recentCalls = [
    count(keys.completed, "zrev", 0, RECENT_FINISHED - 1),
    count(keys.failed, "zrev", 0, RECENT_FINISHED - 1),
  ];
  const replies = (await connection.pipeline([...queueCalls, ...delayedCalls, ...recentCalls])) as (
    string | number
  )[][];

  const result: VersionDistribution = { queue: {}, delayed: {}, retrying: {}, latestVersion: null };
  const bump = (counts: VersionCounts, version: number, n: number) => {
    counts[version] = (counts[version] ?? 0) + n;
  };
  replies.forEach((reply, i) => {
    const isQueue = i < queueCalls.length;
    const isDelayed = !isQueue && i < queueCalls.length + delayedCalls.length;
    for (let j = 0; j + 1 < reply.length; j += 2) {
      // "<bucket> <_v as stored>": the bucket never holds a space, the stored text may.
      const key = String(reply[j]);
      const space = key.indexOf(" ");
      const [bucket, raw] = [key.slice(0, space), key.slice(space + 1)];
      const n = Number(reply[j + 1]);
      const version = decodeVersion(raw);
      if (result.latestVersion === null || version > result.latestVersion) {
        result.latestVersion = version;
      }
      if (isQueue) bump(result.queue, version, n);
      else if (isDelayed) {
        bump(bucket === "retrying" ? result.retrying : result.delayed, version, n);
      }
    }
  });
  return result;
}
