/**
 * What the event stream sends: a task event as a `job:<kind>` payload
 * (stream fields decoded, then formatted and redacted like the REST API),
 * and the `stats:update` payload.
 *
 * @module
 */

import type { JobEventPayload } from "../contract/events.ts";
import type { Presenter } from "../contract/present.ts";
import type { TaskEvent } from "../source/types.ts";

/** Stream fields taskora writes as decimal strings, sent as numbers. */
const NUMERIC_FIELDS = new Set([
  "attempt",
  "maxAttempts",
  "duration",
  "nextAttemptAt",
  "count",
  "delay",
  "runAt",
  "ts",
  "timestamp",
  "processedOn",
  "finishedOn",
  "expireAt",
  "cancelledAt",
  "stalledCount",
  "priority",
  "_v",
]);

/** Event kinds that may appear in an SSE `event:` line. */
const KIND = /^[A-Za-z0-9_.-]+$/;

/** The SSE event name of a job event kind (`job:completed`), or null for a kind we do not forward. */
export function jobEventName(kind: string): string | null {
  return KIND.test(kind) ? `job:${kind}` : null;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** An error message that is JSON gets its keys redacted, as the REST API does. */
function presentError(raw: string, present: Presenter): string {
  const trimmed = raw.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return raw;
  try {
    return JSON.stringify(present.value(JSON.parse(raw)));
  } catch {
    return raw;
  }
}

function decodeField(name: string, raw: string, task: string, present: Presenter): unknown {
  if (NUMERIC_FIELDS.has(name)) {
    const number = Number(raw);
    return raw.trim() !== "" && Number.isFinite(number) ? number : raw;
  }
  switch (name) {
    case "result":
      return present.result(parseJson(raw), task);
    case "data":
      return present.data(parseJson(raw), task);
    case "value": {
      // Progress: a number stays a number, an object is redacted.
      const value = parseJson(raw);
      return typeof value === "object" && value !== null ? present.value(value) : value;
    }
    case "error":
      return presentError(raw, present);
    default:
      return raw;
  }
}

/** The payload of a task event: `{ id, task, at, ...fields }`, fields decoded and presented. */
export function jobEventPayload(event: TaskEvent, present: Presenter): JobEventPayload {
  const payload: JobEventPayload = { id: event.jobId, task: event.task, at: event.at };
  for (const [name, raw] of Object.entries(event.fields)) {
    if (name in payload) continue;
    payload[name] = decodeField(name, raw, event.task, present);
  }
  return payload;
}
