/**
 * The stream entry taskora 0.5.0's stall check writes when it puts a job
 * back to waiting (`STALLED_CHECK`: `stalled`, `action` `recovered`): the
 * job runs again, whether its worker died or it had finished (the check
 * does not look at the state). Counting them per task is how the board
 * tells re-runs; see docs/diagnosis.md, "Jobs that ran twice".
 *
 * @module
 */

/** The entry's `event`. */
export const RERUN_EVENT = "stalled";

/** The entry's `action` when the job went back to waiting (`failed` when it was failed instead). */
export const RERUN_ACTION = "recovered";

/** Most newest entries of a task's stream one count of re-runs looks at. */
export const RERUN_SCAN = 1000;

/** The span the `reruns` alert kind counts over, ms. */
export const RERUN_WINDOW_MS = 15 * 60_000;
