/**
 * Reading what holds one job (see `contract/diagnosis.ts`): two pipelined
 * round trips after the job is located, every command O(1) or bounded
 * (`LPOS … MAXLEN`, the first {@link HOLDER_SCAN} active jobs and their locks,
 * {@link DEBOUNCE_ENTRIES} stream entries from just before the job's
 * dispatch inside one script), never a SCAN.
 *
 * @module
 */

import { HOLDER_SCAN, type JobHolds, QUEUE_POSITION_LIMIT } from "../../contract/diagnosis.ts";
import type { JobState } from "../../contract/states.ts";
import {
  decodeHoldFields,
  dedupKeyOf,
  flowControlKeys,
  HOLD_FIELDS,
} from "../wire/flow_control.ts";
import { taskKeys } from "../wire/keys.ts";
import { jobLockKey } from "../wire/workers.ts";
import type { Command, RedisConnection } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * How far before a job's `ts` its stream entries are looked for, ms: `ts`
 * is the App's clock, an entry's id the Redis server's, and the two hosts'
 * clocks differ.
 */
const CLOCK_SKEW_MS = 2_000;

/** Most stream entries read for a debounce from {@link CLOCK_SKEW_MS} before the job's `ts`. */
const DEBOUNCE_ENTRIES = 200;

/**
 * The `debounced` entry of the task's stream that names job `ARGV[1]` as
 * `replacedBy`, among the `ARGV[3]` entries from `ARGV[2]` on (a little
 * before its dispatch: taskora writes it in the script that adds the job),
 * read inside Redis so no entry's payload crosses the wire; returns the
 * replaced job's id or "".
 */
const DEBOUNCE_REPLACED: LuaScript = {
  name: "debounce-replaced",
  source: `
local near = redis.call('XRANGE', KEYS[1], ARGV[2], '+', 'COUNT', tonumber(ARGV[3]))
for _, entry in ipairs(near) do
  local f = entry[2]
  local got = {}
  for i = 1, #f, 2 do got[f[i]] = f[i + 1] end
  if got.event == 'debounced' and got.replacedBy == ARGV[1] then return got.jobId or '' end
end
return ''
`,
};

/**
 * The facts of job `jobId` of `task` (already located), or null when its
 * hash is gone.
 */
export async function readJobHolds(
  connection: RedisConnection,
  task: string,
  jobId: string,
  prefix?: string,
): Promise<JobHolds | null> {
  const keys = taskKeys(task, prefix);
  const jobKey = `${keys.jobPrefix}${jobId}`;
  const lockKey = `${jobKey}:lock`;
  const first = await connection.pipeline([
    ["HMGET", jobKey, ...HOLD_FIELDS],
    ["ZSCORE", keys.delayed, jobId],
    ["LLEN", keys.wait],
    ["ZCARD", keys.prioritized],
    ["LLEN", keys.active],
    ["LRANGE", keys.active, "0", String(HOLDER_SCAN - 1)],
    // Workers RPOP the tail: searching from it counts the jobs ahead, bounded.
    ["LPOS", keys.wait, jobId, "RANK", "-1", "MAXLEN", String(QUEUE_POSITION_LIMIT + 1)],
    ["ZRANK", keys.prioritized, jobId],
    ["GET", lockKey],
    ["PTTL", lockKey],
  ]);
  const [hash, runAt, waitLength, prioritized, activeLength, activeIds, index, rank, token, pttl] =
    first as [
      (string | null)[],
      string | null,
      number,
      number,
      number,
      string[],
      number | null,
      number | null,
      string | null,
      number,
    ];
  const fields = decodeHoldFields(hash);
  if (fields.state === null && hash.every((value) => value === null)) return null;
  const flow = flowControlKeys(task, prefix);
  const second: Command[] = [{
    script: DEBOUNCE_REPLACED,
    keys: [keys.events],
    args: [
      jobId,
      String(Math.max(0, fields.createdAt - CLOCK_SKEW_MS)),
      String(DEBOUNCE_ENTRIES),
    ],
  }];
  // Live locks of the active jobs read: a worker runs each (busy workers are no missing ones).
  for (const id of activeIds) second.push(["EXISTS", jobLockKey(keys.jobPrefix, String(id))]);
  if (fields.concurrencyKey !== null) {
    second.push(["GET", flow.concurrency(fields.concurrencyKey)]);
    for (const id of activeIds) second.push(["HGET", `${keys.jobPrefix}${id}`, "concurrencyKey"]);
  }
  if (fields.collectKey !== null) {
    second.push(["HMGET", flow.collectMeta(fields.collectKey), "count", "firstAt", "lastAt"]);
  }
  // The hash keeps `dedupKey` after a later dispatch took the key over (taskora
  // deletes the key when its job's state is not one the dispatch's `while` names).
  if (fields.dedupKey !== null) second.push(["GET", fields.dedupKey]);
  const replies = await connection.pipeline(second);
  const replaced = String(replies[0]);
  const locked = replies.slice(1, 1 + activeIds.length).filter((n) => Number(n) === 1).length;
  let at = 1 + activeIds.length;
  let concurrency: JobHolds["concurrency"] = null;
  if (fields.concurrencyKey !== null) {
    const inUse = Number(replies[at++] ?? 0);
    const holderKeys = replies.slice(at, at + activeIds.length);
    at += activeIds.length;
    concurrency = {
      key: fields.concurrencyKey,
      limit: fields.concurrencyLimit,
      inUse,
      holders: activeIds.filter((_, i) => holderKeys[i] === fields.concurrencyKey),
    };
  }
  let collect: JobHolds["collect"] = null;
  if (fields.collectKey !== null) {
    const [count, firstAt, lastAt] = replies[at++] as (string | null)[];
    collect = {
      key: fields.collectKey,
      count: Number(count ?? 0),
      firstAt: firstAt === null ? null : Number(firstAt),
      lastAt: lastAt === null ? null : Number(lastAt),
    };
  }
  const dedupKey = fields.dedupKey !== null && String(replies[at++]) === jobId
    ? dedupKeyOf(fields.dedupKey, task, prefix)
    : null;
  const state = (fields.state ?? "waiting") as JobState;
  const waiting = Number(waitLength) + Number(prioritized);
  let ahead: number | null = null;
  if (state === "waiting") {
    if (index !== null) ahead = Number(waitLength) - 1 - Number(index);
    // A prioritized job is taken once the wait list is empty (taskora pops it first).
    else if (rank !== null) ahead = Number(waitLength) + Number(rank);
  }
  return {
    id: jobId,
    task,
    state,
    attempt: fields.attempt,
    maxAttempts: fields.maxAttempts,
    version: fields.version,
    createdAt: fields.createdAt,
    ahead,
    waiting,
    runAt: runAt === null ? null : Number(runAt),
    dispatchDelayMs: fields.delayMs,
    concurrency,
    dedupKey,
    collect,
    debounceReplaced: replaced === "" ? null : replaced,
    active: { count: Number(activeLength), ids: activeIds.map(String), locked },
    expireAt: fields.expireAt,
    cancelRequested: state === "active" && fields.cancelledAt !== null
      ? { at: fields.cancelledAt, reason: fields.cancelReason }
      : null,
    lock: state === "active"
      ? {
        token: token === null ? null : String(token),
        ttlMs: Number(pttl) >= 0 ? Number(pttl) : null,
      }
      : null,
  };
}
