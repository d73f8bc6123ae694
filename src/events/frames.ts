/**
 * What the event stream sends: a task event as a `job:<kind>` payload (its
 * fields, which the source decoded, formatted and redacted like the REST
 * API's), and the name of its SSE event.
 *
 * @module
 */

import type { JobEventPayload } from "../contract/events.ts";
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
