/**
 * Grows a task's event stream past taskora's cap the way taskora writes it
 * (`XADD … MAXLEN ~ 10000`, here `progress` entries of other jobs), so that
 * Redis trims its oldest entries; answers the time of the oldest one kept.
 *
 * @module
 */

import { taskKeys } from "../../src/source/wire/keys.ts";
import { withClient } from "./redis_server.ts";

/** Entries past the cap, so that `MAXLEN ~` removes at least the oldest macro node. */
const GROWTH = 10_500;

/** Adds {@link GROWTH} entries to `task`'s stream on `url`; returns its oldest kept entry's time (ms). */
export function growPastStreamCap(url: string, task: string): Promise<number> {
  const stream = taskKeys(task).events;
  return withClient(url, async (redis) => {
    await Promise.all(
      Array.from({ length: GROWTH }, (_, i) =>
        redis.sendCommand([
          ...["XADD", stream, "MAXLEN", "~", "10000", "*"],
          ...["event", "progress", "jobId", `other-${i}`, "value", String(i)],
        ])),
    );
    const [first] = await redis.sendCommand(["XRANGE", stream, "-", "+", "COUNT", "1"]) as [
      [string, string[]],
    ];
    return Number(first[0].split("-")[0]);
  });
}
