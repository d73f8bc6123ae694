/**
 * The `alerts` event's payload from the alert states: the firing count, in
 * all and per task. What the top bar, the sidebar and the overview's task
 * rows follow.
 *
 * @module
 */

import type { AlertStatus } from "../contract/alerts.ts";
import type { AlertsFramePayload } from "../contract/events.ts";

/**
 * The payload of `status`, or null when it was never evaluated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { alertsFrameOf } from "./alerts_frame.ts";
 * const frame = alertsFrameOf({ asOf: 5, states: [] });
 * assert.equal(frame?.firing, 0);
 * ```
 */
export function alertsFrameOf(status: AlertStatus): AlertsFramePayload | null {
  if (status.asOf === null) return null;
  const byTask: Record<string, number> = {};
  let firing = 0;
  for (const { phase, task } of status.states) {
    if (phase !== "firing") continue;
    firing++;
    if (task !== null) byTask[task] = (byTask[task] ?? 0) + 1;
  }
  return { firing, byTask, asOf: status.asOf };
}

/**
 * What tells two payloads apart for the clients: the evaluation and its
 * counts, not when or how often the states were read.
 */
export function alertsFrameKey({ firing, byTask, asOf }: AlertsFramePayload): string {
  return JSON.stringify([asOf, firing, Object.entries(byTask).sort(([a], [b]) => a < b ? -1 : 1)]);
}
