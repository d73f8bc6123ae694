/**
 * What the history recorder reads of a memory job: the fields of its hash
 * as taskora writes them (every value a string, absent ones left out), and
 * the sizes of its input and result as `HSTRLEN` gives them.
 *
 * @module
 */

import type { JobFields } from "../../history/recorder.ts";
import { storedBytes } from "./search.ts";
import type { StoredJob } from "./store.ts";

/**
 * The recorded fields of `job`, its input and result too with `payloads`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryStore } from "./store.ts";
 * import { recordedFields } from "./recorded_fields.ts";
 *
 * const store = new MemoryStore({ now: () => 1000 });
 * const job = store.enqueue("mail", { id: "j1", data: { to: "ada" } });
 * assert.deepEqual(recordedFields(job, false), {
 *   ts: "1000",
 *   attempt: "1",
 *   _v: "1",
 *   dataBytes: "12",
 *   resultBytes: "0",
 * });
 * ```
 */
export function recordedFields(job: StoredJob, payloads: boolean): JobFields {
  const fields: JobFields = {
    ts: String(job.createdAt),
    attempt: String(job.attempt),
    _v: String(job.version),
    dataBytes: String(storedBytes(job.data)),
    resultBytes: String(job.result === null ? 0 : storedBytes(job.result)),
  };
  if (job.processedAt !== null) fields.processedOn = String(job.processedAt);
  if (job.finishedAt !== null) fields.finishedOn = String(job.finishedAt);
  if (job.error !== null) fields.error = job.error;
  if (job.cancelledAt !== null) fields.cancelledAt = String(job.cancelledAt);
  if (payloads) {
    fields.data = JSON.stringify(job.data);
    if (job.result !== null) fields.result = JSON.stringify(job.result);
  }
  return fields;
}
