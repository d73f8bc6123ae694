/**
 * The backlog samples the board's leader keeps for the drain forecast (see
 * `contract/forecast.ts`): one hash per minute, task → backlog, expiring
 * after `keepMs`; at most one hash per minute of the last `keepMs`, each
 * of at most the tasks the leader wrote.
 *
 * @module
 */

import { backlogKey } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

/** Writes one minute's sample (HSET and PEXPIRE of one key, one round trip). */
export async function writeBacklogSample(
  connection: RedisConnection,
  minute: number,
  backlog: ReadonlyMap<string, number>,
  keepMs: number,
  prefix?: string,
): Promise<void> {
  if (backlog.size === 0) return;
  const key = backlogKey(minute, prefix);
  const fields = [...backlog].flatMap(([task, count]) => [task, String(count)]);
  await connection.pipeline([["HSET", key, ...fields], ["PEXPIRE", key, String(keepMs)]]);
}

/** A task's backlog in each of the named minutes' samples, null where none was kept. */
export async function readBacklogSamples(
  connection: RedisConnection,
  task: string,
  minutes: readonly number[],
  prefix?: string,
): Promise<(number | null)[]> {
  const replies = await connection.pipeline(
    minutes.map((minute) => ["HGET", backlogKey(minute, prefix), task]),
  );
  return replies.map((reply) => reply === null ? null : Number(reply));
}
