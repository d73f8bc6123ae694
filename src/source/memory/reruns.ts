/**
 * How many times taskora's stall check put a task's jobs back to waiting, in
 * the memory store's stream, as the Redis source counts them (see
 * `redis/reruns.ts`).
 *
 * @module
 */

import { RERUN_ACTION, RERUN_EVENT, RERUN_SCAN } from "../wire/reruns.ts";
import type { StoreEvent } from "./store.ts";

/** The `stalled`/`recovered` entries at or after `since` among the newest {@link RERUN_SCAN} of `stream` (oldest first). */
export function rerunsOf(stream: readonly StoreEvent[], since: number): number {
  return stream.slice(Math.max(0, stream.length - RERUN_SCAN)).filter((entry) =>
    entry.at >= since && entry.event === RERUN_EVENT && entry.fields.action === RERUN_ACTION
  ).length;
}
