/**
 * How many times taskora's stall check put each task's jobs back to waiting
 * since a time: one script per task over the newest {@link RERUN_SCAN}
 * entries of its event stream, newest first, stopping at the first older
 * than the time; all tasks in one pipeline.
 *
 * @module
 */

import { RERUN_ACTION, RERUN_EVENT, RERUN_SCAN } from "../wire/reruns.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/** KEYS[1] = the events stream; ARGV[1] = since (ms). Returns the count. */
export const RERUN_COUNT: LuaScript = {
  name: "rerun-count",
  source: `#!lua flags=no-writes
local since = tonumber(ARGV[1])
local count = 0
for _, entry in ipairs(redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', ${RERUN_SCAN})) do
  if tonumber(string.match(entry[1], '^(%d+)')) < since then break end
  local f = entry[2]
  local event, action
  for i = 1, #f, 2 do
    if f[i] == 'event' then event = f[i + 1] elseif f[i] == 'action' then action = f[i + 1] end
  end
  if event == '${RERUN_EVENT}' and action == '${RERUN_ACTION}' then count = count + 1 end
end
return count
`,
};

/** Each task's count of re-runs since `since` (ms): {@link RERUN_COUNT}, one pipeline. */
export async function getTaskReruns(
  connection: RedisConnection,
  tasks: readonly string[],
  since: number,
  prefix?: string,
): Promise<Map<string, number>> {
  const unique = [...new Set(tasks)];
  const replies = await connection.pipeline(unique.map((task) => ({
    script: RERUN_COUNT,
    keys: [taskKeys(task, prefix).events],
    args: [since],
  })));
  return new Map(unique.map((task, i) => [task, Number(replies[i])]));
}
