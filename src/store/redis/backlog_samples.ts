/**
 * The backlog samples the board's leader keeps for the drain forecast (see
 * `contract/forecast.ts`), in Redis: one hash per minute, task → its sample
 * (`<backlog> <finishedBefore> <at>`), expiring after `keepMs`; at most one
 * hash per minute of the last `keepMs`, each of at most the tasks the
 * leader wrote.
 *
 * @module
 */

import type { BacklogSample } from "../../contract/forecast.ts";
import { backlogKey } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";

/** Writes one minute's samples (HSET and PEXPIRE of one key, one round trip). */
export async function writeBacklogSample(
  connection: RedisConnection,
  minute: number,
  samples: ReadonlyMap<string, BacklogSample>,
  keepMs: number,
  prefix?: string,
): Promise<void> {
  if (samples.size === 0) return;
  const key = backlogKey(minute, prefix);
  const fields = [...samples].flatMap(([task, { backlog, finishedBefore, at }]) => [
    task,
    `${backlog} ${finishedBefore} ${at}`,
  ]);
  await connection.pipeline([["HSET", key, ...fields], ["PEXPIRE", key, String(keepMs)]]);
}

/** A sample as written; null for one in another form (a board before samples kept their time). */
function sampleOf(reply: unknown): BacklogSample | null {
  if (typeof reply !== "string") return null;
  const [backlog, finishedBefore, at] = reply.split(" ").map(Number);
  return Number.isFinite(at) ? { backlog, finishedBefore, at } : null;
}

/** A task's sample in each of the named minutes, null where none was kept. */
export async function readBacklogSamples(
  connection: RedisConnection,
  task: string,
  minutes: readonly number[],
  prefix?: string,
): Promise<(BacklogSample | null)[]> {
  const replies = await connection.pipeline(
    minutes.map((minute) => ["HGET", backlogKey(minute, prefix), task]),
  );
  return replies.map(sampleOf);
}
