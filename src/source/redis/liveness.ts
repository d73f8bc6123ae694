/**
 * Reading liveness (see `contract/liveness.ts`): the named jobs' locks, the
 * task's stalled set, the scheduler leader lock. One pipeline each; a task
 * read costs O(ids + sample), never a walk of the active list.
 *
 * @module
 */

import {
  type JobLock,
  type SchedulerLeadership,
  STALLED_SAMPLE,
  type TaskLiveness,
} from "../../contract/liveness.ts";
import { globalKeys, taskKeys } from "../wire/keys.ts";
import { jobLockKey } from "../wire/workers.ts";
import type { Command, RedisConnection } from "./client.ts";

/** A PTTL reply as milliseconds left; null for no key (-2) or no expiry (-1). */
function ttlOf(pttl: unknown): number | null {
  const ms = Number(pttl);
  return ms >= 0 ? ms : null;
}

/**
 * Per job GET and PTTL of `<job>:lock` and SISMEMBER of the stalled set,
 * then SCARD and SRANDMEMBER of the set: one round trip.
 */
export async function readTaskLiveness(
  connection: RedisConnection,
  task: string,
  jobIds: readonly string[],
  prefix?: string,
): Promise<TaskLiveness> {
  const keys = taskKeys(task, prefix);
  const commands: Command[] = jobIds.flatMap((id): Command[] => [
    ["GET", jobLockKey(keys.jobPrefix, id)],
    ["PTTL", jobLockKey(keys.jobPrefix, id)],
    ["SISMEMBER", keys.stalled, id],
  ]);
  commands.push(["SCARD", keys.stalled], ["SRANDMEMBER", keys.stalled, String(STALLED_SAMPLE)]);
  const replies = await connection.pipeline(commands);
  const locks = jobIds.map((id, i): JobLock => {
    const [token, pttl, member] = replies.slice(i * 3, i * 3 + 3);
    return {
      id,
      token: token === null ? null : String(token),
      ttlMs: token === null ? null : ttlOf(pttl),
      inStalledSet: Number(member) === 1,
    };
  });
  const [total, sample] = replies.slice(jobIds.length * 3) as [number, string[]];
  return {
    known: true,
    locks,
    stalled: { ids: [...sample].map(String).sort(), total: Number(total) },
  };
}

/** GET and PTTL of `schedules:lock`: one round trip. */
export async function readSchedulerLeadership(
  connection: RedisConnection,
  prefix?: string,
): Promise<SchedulerLeadership> {
  const key = globalKeys(prefix).schedulesLock;
  const [token, pttl] = await connection.pipeline([["GET", key], ["PTTL", key]]);
  return {
    known: true,
    leader: token === null ? null : { token: String(token), ttlMs: ttlOf(pttl) },
  };
}
