/**
 * The schedule runs' part of the {@link BoardStore}: taskora keeps only a
 * schedule's last run, so the board keeps the runs it dispatched itself.
 *
 * @module
 */

import type { BoardRunRecord } from "../contract/schedules.ts";

/** The runs the board dispatched per schedule, for every board on the store. */
export interface ScheduleRunStore {
  /** Notes a run of schedule `name` the board dispatched, keeping the `max` newest. */
  recordBoardRun(name: string, run: BoardRunRecord, max: number): Promise<void>;
  /** The runs of each named schedule, newest first, at most `limit` each: one batch for them all. */
  listBoardRuns(names: readonly string[], limit: number): Promise<Map<string, BoardRunRecord[]>>;
  /** Forgets a deleted schedule's runs. */
  forgetBoardRuns(name: string): Promise<void>;
}
