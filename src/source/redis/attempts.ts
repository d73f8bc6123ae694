/**
 * A job's failed attempts and runs, read from its task's event stream: the
 * entries naming the job that a history reads (`HISTORY_EVENTS`), newest first, 1,000 entries per
 * script call (filtered inside Redis, so entries carrying big results never
 * cross the wire), up to {@link ATTEMPT_SCAN_LIMIT} entries.
 *
 * @module
 */

import {
  type AttemptChunk,
  type AttemptEntry,
  type AttemptHistory,
  collectAttempts,
} from "../attempt_history.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { locateJob } from "./locate.ts";
import { ATTEMPT_ENTRIES, CHUNK_SIZE } from "./scripts.ts";

/** A stream entry id's time part (ms). */
const timeOf = (id: string): number => Number(id.slice(0, id.indexOf("-")));

/** A numeric stream field, or null when absent or not a number. */
function numberOr(raw: string): number | null {
  const n = Number(raw);
  return raw !== "" && Number.isFinite(n) ? n : null;
}

/**
 * The attempt history of a job, or null when no task has it. Round trips:
 * one to locate the job, one for its `ts`, `attempt`, `state` and `error`, then one per 1,000
 * stream entries until an entry older than the job, the stream's start, or
 * {@link ATTEMPT_SCAN_LIMIT} entries.
 */
export async function getAttemptHistory(
  connection: RedisConnection,
  tasks: readonly string[],
  jobId: string,
  prefix?: string,
): Promise<AttemptHistory | null> {
  const task = await locateJob(connection, tasks, jobId, prefix, "hash");
  if (task === null) return null;
  const keys = taskKeys(task, prefix);
  const [ts, attempt, state, error] = await connection.call<(string | null)[]>(
    ["HMGET", `${keys.jobPrefix}${jobId}`, "ts", "attempt", "state", "error"],
  );
  let end = "+";
  const chunk = async (): Promise<AttemptChunk> => {
    const [scanned, oldestId, ...entries] = await connection.call<
      [number, string, ...[string, string, string, string, string, string][]]
    >({ script: ATTEMPT_ENTRIES, keys: [keys.events], args: [jobId, end, CHUNK_SIZE] });
    if (oldestId !== "") end = `(${oldestId}`;
    return {
      found: entries.map(([id, event, attempt, error, nextAt, action]): AttemptEntry => ({
        event,
        attempt: numberOr(attempt),
        error: error || null,
        at: timeOf(id),
        nextAttemptAt: numberOr(nextAt),
        action: action || null,
      })),
      scanned,
      oldestAt: oldestId === "" ? null : timeOf(oldestId),
      reachedStart: scanned < CHUNK_SIZE,
    };
  };
  return await collectAttempts(
    {
      createdAt: numberOr(ts ?? "") ?? 0,
      attempt: numberOr(attempt ?? "") ?? 1,
      state: state ?? "",
      error: error || null,
    },
    chunk,
  );
}
