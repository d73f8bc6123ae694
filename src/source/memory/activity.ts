/**
 * When a task's workers last took and finished a job, from the newest
 * entries of the memory store's stream, as the Redis source reads them
 * (see `redis/activity.ts`).
 *
 * @module
 */

import type { TaskActivity } from "../../contract/workers.ts";
import { FINISHED_EVENTS, TAKEN_EVENT } from "../wire/workers.ts";
import type { StoreEvent } from "./store.ts";

/** The {@link TaskActivity} of the newest `depth` entries of `stream` (oldest first). */
export function taskActivity(stream: readonly StoreEvent[], depth: number): TaskActivity {
  const newest = stream.slice(Math.max(0, stream.length - depth));
  const last = (kinds: readonly string[]) =>
    newest.findLast((entry) => kinds.includes(entry.event))?.at ?? null;
  return {
    lastTakenAt: last([TAKEN_EVENT]),
    lastFinishedAt: last(FINISHED_EVENTS),
    scanned: newest.length,
    coveredSince: newest[0]?.at ?? null,
  };
}
