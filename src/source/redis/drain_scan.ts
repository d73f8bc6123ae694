/**
 * What a task's event stream says of its queue's drain since a time (see
 * `contract/queue_eta.ts`): read inside Redis, newest first, down to the
 * time and at most `depth` entries, so only four figures cross the wire.
 *
 * @module
 */

import type { DrainScan } from "../../contract/queue_eta.ts";
import { taskKeys } from "../wire/keys.ts";
import { FINISHED_EVENTS, TAKEN_EVENT } from "../wire/workers.ts";
import type { RedisConnection } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * KEYS[1] = events stream; ARGV[1] = since (ms), ARGV[2] = depth,
 * ARGV[3] = the taken kind, ARGV[4..] = the finished kinds. Returns
 * `{ scanned, oldestAt, finished, startedAt }` (times in ms, -1 for none):
 * `startedAt` the time of the oldest taken entry when no finished entry is
 * older.
 */
const DRAIN_SCAN: LuaScript = {
  name: "drain-scan",
  source: `#!lua flags=no-writes
local entries = redis.call('XREVRANGE', KEYS[1], '+', ARGV[1], 'COUNT', tonumber(ARGV[2]))
local finishing = {}
for i = 4, #ARGV do finishing[ARGV[i]] = true end
local finished, started = 0, ''
for _, entry in ipairs(entries) do
  local f = entry[2]
  for i = 1, #f, 2 do
    if f[i] == 'event' then
      if finishing[f[i + 1]] then
        finished = finished + 1
        started = ''
      elseif f[i + 1] == ARGV[3] then
        started = entry[1]
      end
      break
    end
  end
end
local function ms(id) return id == '' and -1 or tonumber(string.match(id, '^%d+')) end
local last = entries[#entries]
return { #entries, ms(last and last[1] or ''), finished, ms(started) }
`,
};

/** A time the script answered, null for none. */
const timeOf = (ms: number): number | null => ms < 0 ? null : ms;

/** The task's {@link DrainScan} since `since`: one script call. */
export async function scanDrain(
  connection: RedisConnection,
  task: string,
  since: number,
  depth: number,
  prefix?: string,
): Promise<DrainScan> {
  const [reply] = await connection.pipeline([{
    script: DRAIN_SCAN,
    keys: [taskKeys(task, prefix).events],
    // A stream id is a whole, non-negative ms: a clock with a fraction (a shifted one) is not.
    args: [Math.max(0, Math.floor(since)), depth, TAKEN_EVENT, ...FINISHED_EVENTS],
  }]);
  const [scanned, oldestAt, finished, startedAt] = (reply as number[]).map(Number);
  return { scanned, oldestAt: timeOf(oldestAt), finished, startedAt: timeOf(startedAt) };
}
