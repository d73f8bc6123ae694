/**
 * When a task's workers last took and finished a job (see
 * `contract/workers.ts`), and the locks of its newest active jobs. The
 * stream is read inside Redis, newest first, at most `depth` entries, so
 * entries carrying big results never cross the wire; many tasks are one
 * pipeline, one script call per task.
 *
 * @module
 */

import type { ActiveLocks, TaskActivity } from "../../contract/workers.ts";
import { taskKeys } from "../wire/keys.ts";
import { FINISHED_EVENTS, TAKEN_EVENT } from "../wire/workers.ts";
import type { RedisConnection } from "./client.ts";
import { readTaskLiveness } from "./liveness.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * The ids of the newest entry of kind ARGV[2] and of the newest of the
 * kinds ARGV[3..] among the newest ARGV[1] entries of the stream.
 *
 * KEYS[1] = events stream. Returns `{ scanned, oldestId, takenId, finishedId }` ("" when none).
 */
const TASK_ACTIVITY: LuaScript = {
  name: "task-activity",
  source: `
local entries = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', tonumber(ARGV[1]))
local finishing = {}
for i = 3, #ARGV do finishing[ARGV[i]] = true end
local taken, finished = '', ''
for _, entry in ipairs(entries) do
  local f = entry[2]
  for i = 1, #f, 2 do
    if f[i] == 'event' then
      if taken == '' and f[i + 1] == ARGV[2] then taken = entry[1] end
      if finished == '' and finishing[f[i + 1]] then finished = entry[1] end
      break
    end
  end
end
local last = entries[#entries]
return { #entries, last and last[1] or '', taken, finished }
`,
};

/** A stream entry id's time part (ms), or null for "". */
function timeOf(id: string): number | null {
  return id === "" ? null : Number(id.slice(0, id.indexOf("-")));
}

/**
 * Each named task's {@link TaskActivity} from the newest `depth` entries
 * of its stream: one round trip, one script call per task.
 */
export async function readTaskActivity(
  connection: RedisConnection,
  tasks: readonly string[],
  depth: number,
  prefix?: string,
): Promise<Map<string, TaskActivity>> {
  const replies = await connection.pipeline(tasks.map((task) => ({
    script: TASK_ACTIVITY,
    keys: [taskKeys(task, prefix).events],
    args: [depth, TAKEN_EVENT, ...FINISHED_EVENTS],
  })));
  return new Map(tasks.map((task, i) => {
    const [scanned, oldest, taken, finished] = replies[i] as [number, string, string, string];
    return [task, {
      lastTakenAt: timeOf(taken),
      lastFinishedAt: timeOf(finished),
      scanned: Number(scanned),
      coveredSince: timeOf(oldest),
    }];
  }));
}

/**
 * The active list's length and the locks of its `limit` newest claimed
 * jobs (its head): two round trips, O(limit).
 */
export async function readActiveLocks(
  connection: RedisConnection,
  task: string,
  limit: number,
  prefix?: string,
): Promise<ActiveLocks> {
  const { active } = taskKeys(task, prefix);
  // LRANGE 0 -1 would be the whole list: no range at all for a limit of 0.
  const [length, ids = []] = await connection.pipeline([
    ["LLEN", active],
    ...(limit > 0 ? [["LRANGE", active, "0", String(limit - 1)]] : []),
  ]) as [number, string[]?];
  const liveness = await readTaskLiveness(connection, task, ids.map(String), prefix);
  return { active: Number(length), locks: liveness.known ? liveness.locks : [] };
}
