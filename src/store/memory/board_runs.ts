/**
 * The runs of each schedule, the board's and the scheduler's, for the memory store: what
 * Redis keeps for every board (`../redis/board_runs.ts`), in the process,
 * with the same bounds. Records are copied in and out.
 *
 * @module
 */

import type { BoardRunRecord } from "../../contract/schedules.ts";

/** The board's runs of one memory store's schedules. */
export class BoardRunMemory {
  /** Newest first, per schedule name. */
  readonly #runs = new Map<string, BoardRunRecord[]>();

  /** Notes a run of `name`, keeping the `max` newest and one entry per job. */
  record(name: string, run: BoardRunRecord, max: number): void {
    const others = (this.#runs.get(name) ?? []).filter(({ jobId }) => jobId !== run.jobId);
    this.#runs.set(name, [{ ...run }, ...others].slice(0, max));
  }

  /** The `limit` newest runs of `name`, newest first. */
  list(name: string, limit: number): BoardRunRecord[] {
    return (this.#runs.get(name) ?? []).slice(0, limit).map((run) => ({ ...run }));
  }

  /** Forgets a deleted schedule's runs. */
  forget(name: string): void {
    this.#runs.delete(name);
  }
}
