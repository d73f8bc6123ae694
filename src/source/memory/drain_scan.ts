/**
 * What a task's event stream says of its queue's drain since a time, from
 * the memory store's stream, as the Redis source reads it (see
 * `redis/drain_scan.ts`).
 *
 * @module
 */

import type { DrainScan } from "../../contract/queue_eta.ts";
import { FINISHED_EVENTS, TAKEN_EVENT } from "../wire/workers.ts";
import type { StoreEvent } from "./store.ts";

/** The {@link DrainScan} of `stream` (oldest first) since `since`, at most its newest `depth` entries. */
export function drainScan(stream: readonly StoreEvent[], since: number, depth: number): DrainScan {
  const read = stream.filter((entry) => entry.at >= since).slice(-depth);
  const worker = read.filter((entry) =>
    entry.event === TAKEN_EVENT || FINISHED_EVENTS.includes(entry.event)
  );
  return {
    scanned: read.length,
    oldestAt: read[0]?.at ?? null,
    finished: worker.filter((entry) => entry.event !== TAKEN_EVENT).length,
    startedAt: worker[0]?.event === TAKEN_EVENT ? worker[0].at : null,
  };
}
