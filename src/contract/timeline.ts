/**
 * A job's life as a list of steps, rebuilt from its state and its times.
 *
 * @module
 */

import type { JobTimestamps, TimelineEntry } from "./jobs.ts";
import type { JobState } from "./states.ts";

const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled", "expired"]);

/**
 * The job's life rebuilt from its state and times, oldest step first:
 * dispatched (waiting), started (active), then when it runs again (delayed,
 * retrying), finished, or was asked to cancel while it ran. A time that does
 * not fit the state (a finish time of a job sent back to waiting) is left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { timelineOf } from "./timeline.ts";
 * const times = { created: 100, processed: 150, finished: 180, runAt: null, cancelled: null, expireAt: null };
 * assert.deepEqual(
 *   timelineOf("failed", times),
 *   [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "failed", at: 180 }],
 * );
 * ```
 */
export function timelineOf(state: JobState, times: JobTimestamps): TimelineEntry[] {
  const steps: TimelineEntry[] = [];
  if (times.created) steps.push({ state: "waiting", at: times.created });
  if (times.processed) steps.push({ state: "active", at: times.processed });
  if ((state === "delayed" || state === "retrying") && times.runAt !== null) {
    steps.push({ state, at: times.runAt });
  }
  if (times.finished && TERMINAL.has(state)) {
    steps.push({ state, at: times.finished });
  } else if (times.cancelled && state === "active") {
    steps.push({ state: "cancelling", at: times.cancelled });
  }
  return steps.sort((a, b) => a.at - b.at);
}
