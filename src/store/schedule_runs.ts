/**
 * The schedule runs' part of the {@link BoardStore}: taskora keeps only a
 * schedule's last run, so the board keeps the runs it dispatched itself and
 * the scheduler's it saw, marked by who made them.
 *
 * @module
 */

import type { BoardRunRecord } from "../contract/schedules.ts";

/** The runs of each schedule, the board's and the scheduler's, for every board on the store. */
export interface ScheduleRunStore {
  /** Notes a run of schedule `name`, keeping the `max` newest; a job noted again moves to the front, once. */
  recordBoardRun(name: string, run: BoardRunRecord, max: number): Promise<void>;
  /**
   * The runs of each named schedule, newest first, at most `limit` each: one
   * batch for them all. Read only: a store may answer an unchanged read with
   * the map it answered before.
   */
  listBoardRuns(
    names: readonly string[],
    limit: number,
  ): Promise<ReadonlyMap<string, readonly BoardRunRecord[]>>;
  /** Forgets a deleted schedule's runs. */
  forgetBoardRuns(name: string): Promise<void>;
}
