/**
 * The `alerts` event's payload from the alert states: the firing count, in
 * all and per task. What the top bar, the sidebar and the overview's task
 * rows follow.
 *
 * @module
 */

import type { AlertSilence, AlertStatus } from "../contract/alerts.ts";
import type { AlertsFramePayload } from "../contract/events.ts";
import { silenceOf } from "../alerts/evaluate.ts";

/**
 * The payload of `status`, or null when it was never evaluated. A firing
 * alert one of `silences` mutes at the evaluation's time is counted apart
 * (`silenced`): it is told nobody, so the top bar does not count it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { alertsFrameOf } from "./alerts_frame.ts";
 * assert.equal(alertsFrameOf({ asOf: 5, states: [] }, [])?.firing, 0);
 * assert.equal(alertsFrameOf({ asOf: null, states: [] }, []), null);
 * ```
 */
export function alertsFrameOf(
  status: AlertStatus,
  silences: readonly AlertSilence[],
): AlertsFramePayload | null {
  const { asOf } = status;
  if (asOf === null) return null;
  const byTask: Record<string, number> = {};
  let firing = 0;
  let silenced = 0;
  for (const { phase, rule, task } of status.states) {
    if (phase !== "firing") continue;
    if (silenceOf(silences, rule, task, asOf) !== null) {
      silenced++;
      continue;
    }
    firing++;
    if (task !== null) byTask[task] = (byTask[task] ?? 0) + 1;
  }
  return { firing, silenced, byTask, asOf };
}

/**
 * What tells two payloads apart for the clients: the evaluation and its
 * counts, not when or how often the states were read.
 */
export function alertsFrameKey({ firing, silenced, byTask, asOf }: AlertsFramePayload): string {
  const tasks = Object.entries(byTask).sort(([a], [b]) => a < b ? -1 : 1);
  return JSON.stringify([asOf, firing, silenced, tasks]);
}
