/**
 * Reading liveness (see `contract/liveness.ts`): the named jobs' locks, the
 * task's stalled jobs, the scheduler leader lock. One pipeline each; a task
 * read costs O(ids + `STALLED_SCAN`), never a walk of the whole active list.
 *
 * @module
 */

import type { JobLock, SchedulerLeadership, TaskLiveness } from "../../contract/liveness.ts";
import { globalKeys, taskKeys } from "../wire/keys.ts";
import { jobLockKey } from "../wire/workers.ts";
import type { Command, RedisConnection } from "./client.ts";
import { STALLED_JOBS, stalledOf } from "./stalled_jobs.ts";

/** A PTTL reply as milliseconds left; null for no key (-2) or no expiry (-1). */
function ttlOf(pttl: unknown): number | null {
  const ms = Number(pttl);
  return ms >= 0 ? ms : null;
}

/**
 * Per job GET and PTTL of `<job>:lock` and SISMEMBER of the `:stalled` set,
 * then the stalled jobs ({@link STALLED_JOBS}): one round trip.
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
  commands.push({ script: STALLED_JOBS, keys: [keys.active], args: [keys.jobPrefix] });
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
  return { known: true, locks, stalled: stalledOf(replies[jobIds.length * 3] as unknown[]) };
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
