/**
 * A task's stalled jobs: those of its active list without a lock (see
 * `contract/liveness.ts`), among the {@link STALLED_SCAN} claimed longest ago.
 * Not taskora's `:stalled` set, which holds the candidates of its next stall
 * check: running jobs between two renewals of their lock, and jobs that
 * finished since.
 *
 * @module
 */

import { STALLED_SCAN, type StalledJobs } from "../../contract/liveness.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * `stalledJobs(activeKey, jobPrefix)`: workers LPUSH the jobs they claim, so
 * the list's last {@link STALLED_SCAN} are those claimed longest ago; of
 * them, the ids whose `<job>:lock` is absent, oldest first, after how many
 * were looked at: `{ checked, id, id, … }`. At most {@link STALLED_SCAN}
 * EXISTS, and none for an empty list.
 */
export const STALLED_LUA = `
local function stalledJobs(activeKey, jobPrefix)
  local ids = redis.call('LRANGE', activeKey, -${STALLED_SCAN}, -1)
  local reply = { #ids }
  for i = #ids, 1, -1 do
    if redis.call('EXISTS', jobPrefix .. ids[i] .. ':lock') == 0 then reply[#reply + 1] = ids[i] end
  end
  return reply
end
`;

/** KEYS[1] = the active list; ARGV[1] = jobPrefix: {@link STALLED_LUA}'s reply. */
export const STALLED_JOBS: LuaScript = {
  name: "stalled-jobs",
  source: `#!lua flags=no-writes
${STALLED_LUA}
return stalledJobs(KEYS[1], ARGV[1])
`,
};

/** Turns a reply of {@link STALLED_LUA} into the task's stalled jobs. */
export function stalledOf([checked, ...ids]: readonly unknown[]): StalledJobs {
  return { ids: ids.map(String), total: ids.length, checked: Number(checked) };
}
