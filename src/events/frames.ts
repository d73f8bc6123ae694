/**
 * What the event stream sends: a task event as a `job:<kind>` payload (its
 * fields, which the source decoded, formatted and redacted like the REST
 * API's), the same payload as a user without `payload.read` may see it, and
 * the name of its SSE event.
 *
 * @module
 */

import type { JobEventPayload } from "../contract/events.ts";
import { LIST_PROGRESS_LIMIT } from "../contract/jobs.ts";
import { clipValue } from "../contract/payload.ts";
import type { Presenter } from "../contract/present.ts";
import type { TaskEvent } from "../source/types.ts";

/** Event kinds that may appear in an SSE `event:` line. */
const KIND = /^[A-Za-z0-9_.-]+$/;

/** The SSE event name of a job event kind (`job:completed`), or null for a kind we do not forward. */
export function jobEventName(kind: string): string | null {
  return KIND.test(kind) ? `job:${kind}` : null;
}

/** One decoded field as the client sees it: job values formatted, then everything redacted. */
function presentField(name: string, value: unknown, task: string, present: Presenter): unknown {
  switch (name) {
    case "result":
      return present.result(value, task);
    case "data":
      return present.data(value, task);
    case "error":
      return typeof value === "string" ? present.error(value) : present.value(value);
    default:
      // Numbers and text pass as they are; a progress object (or any other) is redacted.
      return typeof value === "object" && value !== null ? present.value(value) : value;
  }
}

/** The payload of a task event: `{ id, task, at, ...fields }`, fields presented. */
export function jobEventPayload(event: TaskEvent, present: Presenter): JobEventPayload {
  const payload: JobEventPayload = { id: event.jobId, task: event.task, at: event.at };
  for (const [name, value] of Object.entries(event.fields)) {
    if (name in payload) continue;
    payload[name] = presentField(name, value, event.task, present);
  }
  return payload;
}

/**
 * The fields of a job event that are no payload: attempts, timings, errors
 * (a job's page shows them to every user), a cancel's reason, counts, and
 * what replaced a debounced job. Any other field (a result, a collect key, a
 * field a newer worker writes) may hold values of the job.
 */
const NO_PAYLOAD = new Set([
  "attempt",
  "duration",
  "nextAttemptAt",
  "error",
  "reason",
  "count",
  "action",
  "replacedBy",
]);

/**
 * `payload` as a user without `payload.read` sees it: the fields that are no
 * payload, and a progress only as a list row shows it (null over
 * {@link LIST_PROGRESS_LIMIT}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutEventPayloads } from "./frames.ts";
 * const completed = { id: "j-1", task: "mail", at: 1, duration: 7, result: { sent: true } };
 * assert.deepEqual(withoutEventPayloads(completed), { id: "j-1", task: "mail", at: 1, duration: 7 });
 * ```
 */
export function withoutEventPayloads(payload: JobEventPayload): JobEventPayload {
  const shown: JobEventPayload = { id: payload.id, task: payload.task, at: payload.at };
  for (const [name, value] of Object.entries(payload)) {
    if (name === "value") shown.value = clipValue(value, LIST_PROGRESS_LIMIT).value;
    else if (NO_PAYLOAD.has(name)) shown[name] = value;
  }
  return shown;
}
