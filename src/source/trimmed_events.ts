/**
 * Whether a job's early events were trimmed from its task's event stream.
 * taskora writes each entry with `XADD … MAXLEN ~ 10000`, so on a busy task
 * the entries of an older job are gone: its timeline and attempt history
 * cannot be complete, and the job page says so, with the time of the
 * oldest entry kept. Both sources decide it here, from whether the stream
 * ever lost entries and from its oldest kept entry.
 *
 * @module
 */

/** The entries taskora writes when it creates a job. */
const CREATION_EVENTS: ReadonlySet<string> = new Set(["waiting", "delayed", "collect"]);

/** What a source knows of a task's stream. */
export interface StreamEnds {
  /** Its oldest kept entry: time (ms), `jobId` and `event`; null for an empty or missing stream. */
  oldest: { at: number; jobId: string; event: string } | null;
  /**
   * Whether entries were ever removed (more added than kept); `undefined`
   * when the store does not say (Redis before 7), taken as yes.
   */
  trimmed: boolean | undefined;
}

/**
 * The time of the oldest kept entry when the job's (created at `createdAt`,
 * ms) early entries were trimmed, else null: the stream lost entries and
 * its oldest is newer than the job, unless that oldest is the job's own
 * creation entry (written a moment after its `ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventsTrimmedBefore } from "./trimmed_events.ts";
 * const oldest = { at: 5_000, jobId: "other", event: "progress" };
 * assert.equal(eventsTrimmedBefore("j1", 1_000, { oldest, trimmed: true }), 5_000);
 * assert.equal(eventsTrimmedBefore("j1", 1_000, { oldest, trimmed: false }), null);
 * assert.equal(eventsTrimmedBefore("j1", 6_000, { oldest, trimmed: true }), null);
 * ```
 */
export function eventsTrimmedBefore(
  jobId: string,
  createdAt: number,
  ends: StreamEnds,
): number | null {
  const { oldest, trimmed } = ends;
  if (oldest === null || trimmed === false || oldest.at <= createdAt) return null;
  if (oldest.jobId === jobId && CREATION_EVENTS.has(oldest.event)) return null;
  return oldest.at;
}
