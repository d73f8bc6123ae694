/**
 * The schedule runs the board dispatched itself ("Run now"), as a schedule
 * shows them: the runs its `BoardStore` keeps (taskora keeps only a
 * schedule's last run), each with its job's state now, read from the
 * `TaskSource`. Noted on a trigger, forgotten with the schedule.
 *
 * @module
 */

import { BOARD_RUNS_KEPT, type BoardRun } from "../contract/schedules.ts";
import type { TaskSource } from "../source/types.ts";
import type { ScheduleRunStore } from "../store/schedule_runs.ts";

/** A schedule whose board runs are asked for: its name and the task its jobs belong to. */
export interface BoardRunsOf {
  /** The schedule's name. */
  name: string;
  /** The task its runs' jobs belong to. */
  task: string;
}

/** The schedule runs of one board: kept in `store`, their states read from `source`. */
export class BoardRuns {
  readonly #source: TaskSource;
  readonly #store: ScheduleRunStore;

  /** Runs kept in `store` of jobs `source` holds. */
  constructor(source: TaskSource, store: ScheduleRunStore) {
    this.#source = source;
    this.#store = store;
  }

  /**
   * The newest runs of each schedule with each job's state now: one read
   * of the store and one batch of the source; none where the source reads
   * no job states (nothing is noted then either).
   */
  async list(schedules: readonly BoardRunsOf[]): Promise<Map<string, BoardRun[]>> {
    if (!this.#source.getJobStates) return new Map();
    const kept = await this.#store.listBoardRuns(
      schedules.map(({ name }) => name),
      BOARD_RUNS_KEPT,
    );
    const runs = schedules.map(({ name }) => kept.get(name) ?? []);
    const states = await this.#source.getJobStates(
      schedules.flatMap(({ task }, i) => runs[i].map(({ jobId }) => ({ id: jobId, task }))),
    );
    let next = 0;
    return new Map(
      schedules.map((
        { name },
        i,
      ) => [name, runs[i].map((run) => ({ ...run, state: states[next++] }))]),
    );
  }

  /** Notes a run of `name` the board dispatched at `at`, keeping the newest. */
  async note(name: string, jobId: string, at: number): Promise<void> {
    if (!this.#source.getJobStates) return;
    await this.#store.recordBoardRun(name, { jobId, at }, BOARD_RUNS_KEPT);
  }

  /** Forgets a deleted schedule's runs. */
  async forget(name: string): Promise<void> {
    await this.#store.forgetBoardRuns(name);
  }
}
