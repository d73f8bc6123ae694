/**
 * Decoding of a task event's stream fields (`taskora:{T}:events`), which
 * taskora's scripts write as strings: the Redis source decodes what XREAD
 * returns, the memory source what its store emits, both with this.
 *
 * @module
 */

import type { TaskEventFields } from "../types.ts";

/** Stream fields taskora writes as decimal strings. */
const NUMERIC_FIELDS: ReadonlySet<string> = new Set([
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

/** Stream fields taskora writes serialized with JSON: a result, a job's input, a progress value. */
const JSON_FIELDS: ReadonlySet<string> = new Set(["result", "data", "value"]);

/** A JSON value parsed; one that is not JSON (a custom serializer) is kept as the string it is. */
function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * A stream entry's fields (other than `event` and `jobId`) decoded: numbers
 * as numbers, `result`, `data` and `value` parsed from JSON, any other field
 * (`error`, `reason`, …) as the text it is. A numeric field that is not a
 * number is left out, as a job hash's is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeEventFields } from "./event_fields.ts";
 * assert.deepEqual(
 *   decodeEventFields({ result: '{"ok":true}', duration: "12", error: "boom" }),
 *   { result: { ok: true }, duration: 12, error: "boom" },
 * );
 * ```
 */
export function decodeEventFields(raw: Readonly<Record<string, string>>): TaskEventFields {
  const fields: TaskEventFields = {};
  for (const [name, value] of Object.entries(raw)) {
    if (NUMERIC_FIELDS.has(name)) {
      const number = Number(value);
      if (value.trim() !== "" && Number.isFinite(number)) fields[name] = number;
    } else {
      fields[name] = JSON_FIELDS.has(name) ? parseJson(value) : value;
    }
  }
  return fields;
}
