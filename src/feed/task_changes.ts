/**
 * What a task's events since its last read can have changed, so that the
 * live state's pass reads that and nothing more (see `live_state.ts`). A
 * busy task's events are mostly takes and finishes: a take (`active`) moves
 * a job from the wait list or the prioritized set to the head of the active
 * list, a finish (`completed`) from the active list to the completed set
 * and the minute's counter, a `progress` moves nothing (taskora 0.5.0's
 * scripts: every other move writes an event of its own, `promoted` for a
 * delayed job that fell due, `expired` for one that ran out). Any other
 * event, and a change the board made or a trimmed stream (no event tells
 * what moved), may have changed anything: the task is read whole.
 *
 * Read before, a task that moved cost its eight counts, the heads of its
 * queues and both sides of its minutes every pass: 16 commands a pass (10
 * tasks moving, `tests/feed/live_state_test.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TaskChanges } from "./task_changes.ts";
 *
 * const changes = new TaskChanges();
 * const heads = { oldestActive: { id: "a1", since: 0 }, oldestWaiting: null, nextDue: null };
 * changes.note("active", "j9", heads);
 * changes.note("completed", "j9", heads);
 * assert.deepEqual([...changes.states].sort(), ["active", "completed", "waiting"]);
 * assert.equal(changes.oldestActive, false, "the job active longest is still a1");
 * assert.equal(changes.finishes && !changes.failures, true);
 * changes.note("failed", "a1", heads);
 * assert.equal(changes.whole, true);
 * ```
 *
 * @module
 */

import { JOB_STATES } from "../contract/states.ts";
import type { CountedState, QueueHeads } from "../source/types.ts";

/** The counts a queue snapshot reads, each of which an event may change. */
export const COUNTED_STATES: readonly CountedState[] = JOB_STATES.filter(
  (state): state is CountedState => state !== "retrying",
);

/** What one task's events since its last read can have changed. */
export class TaskChanges {
  /** The counts they can have changed. */
  readonly states = new Set<CountedState>();
  /** Whether they can have changed which job waits longest. */
  oldestWaiting = false;
  /** Whether they can have changed which job is active longest. */
  oldestActive = false;
  /** Whether they can have changed the next due delayed job. */
  nextDue = false;
  /** Whether a job finished: the minutes' completed counters moved. */
  finishes = false;
  /** Whether a job may have failed: the minutes' failed counters and the failed set. */
  failures = false;
  /** Whether anything may have changed: read the task whole. */
  whole = false;

  /** Anything may have changed: a change without an event, or one whose moves are not known. */
  all(): void {
    for (const state of COUNTED_STATES) this.states.add(state);
    this.oldestWaiting = this.oldestActive = this.nextDue = true;
    this.finishes = this.failures = this.whole = true;
  }

  /** Notes an event of `job`, against the task's heads as last read. */
  note(event: string, job: string, heads: QueueHeads | undefined): void {
    if (event === "progress") return;
    if (event === "active") {
      this.states.add("waiting").add("active");
      // A take pushes onto the active list's head: its tail moves only from empty.
      if (heads?.oldestActive == null) this.oldestActive = true;
      const oldest = heads?.oldestWaiting;
      if (oldest == null || oldest.id === job) this.oldestWaiting = true;
      return;
    }
    if (event === "completed") {
      this.states.add("active").add("completed");
      if (heads?.oldestActive == null || heads.oldestActive.id === job) this.oldestActive = true;
      this.finishes = true;
      return;
    }
    this.all();
  }
}
