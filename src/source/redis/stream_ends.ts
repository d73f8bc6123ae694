/**
 * The ends of a task's event stream (see `trimmed_events.ts`): its oldest
 * entry's id, `jobId` and `event`, and whether it ever lost entries
 * (`entries-added` over `length`, Redis 7), read by one script from
 * `XINFO STREAM` so that no entry's other fields (a completed job's result)
 * cross the wire. O(1).
 *
 * @module
 */

import type { StreamEnds } from "../trimmed_events.ts";
import type { Command } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/** Returns `{ first id, its jobId, its event, removed count ("?" when Redis has no entries-added) }`. */
const STREAM_ENDS: LuaScript = {
  name: "stream-ends",
  source: `
if redis.call('EXISTS', KEYS[1]) == 0 then return { '', '', '', '0' } end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local first, jobId, event, length, added = '', '', '', 0, nil
for i = 1, #info, 2 do
  local name, value = info[i], info[i + 1]
  if name == 'length' then length = value end
  if name == 'entries-added' then added = value end
  if name == 'first-entry' and value then
    first = value[1]
    local f = value[2]
    for j = 1, #f, 2 do
      if f[j] == 'jobId' then jobId = f[j + 1] end
      if f[j] == 'event' then event = f[j + 1] end
    end
  end
end
return { first, jobId, event, added and tostring(added - length) or '?' }
`,
};

/** The script call reading the ends of `events`. */
export function streamEndsCommand(events: string): Command {
  return { script: STREAM_ENDS, keys: [events], args: [] };
}

/** The reply of {@link streamEndsCommand}, decoded; a failed read (another type) reads as empty. */
export function decodeStreamEnds(reply: unknown): StreamEnds {
  if (!Array.isArray(reply)) return { oldest: null, trimmed: false };
  const [first, jobId, event, removed] = reply.map(String);
  return {
    oldest: first === "" ? null : { at: Number(first.split("-")[0]), jobId, event },
    trimmed: removed === "?" ? undefined : Number(removed) > 0,
  };
}
