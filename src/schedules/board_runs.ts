/**
 * The runs of each schedule, as a schedule shows them: the runs its
 * `BoardStore` keeps (taskora keeps only a schedule's last run), the board's
 * own ("Run now", noted on a trigger) and the scheduler's (noted when a
 * board reads its schedules and one names a last job the store does not
 * hold yet), each with its job's state now, read from the `TaskSource`, or
 * the history's once taskora removed the job. Forgotten with the schedule.
 *
 * @module
 */

import {
  BOARD_RUNS_KEPT,
  type BoardRun,
  type BoardRunRecord,
  SCHEDULE_RUNS_KEPT,
  type ScheduleRecord,
  type ScheduleRun,
  type ScheduleRunsPage,
} from "../contract/schedules.ts";
import type { JobState } from "../contract/states.ts";
import type { TaskSource } from "../source/types.ts";
import type { ScheduleRunStore } from "../store/schedule_runs.ts";

/** Each schedule's runs, by its name: shared with the next caller, so read only. */
export type RunsByName<R> = ReadonlyMap<string, readonly R[]>;

/**
 * What a list showed of the store's runs, built once per change of the
 * schedules or of the store's answer (both compared by identity).
 */
interface Shown {
  schedules: readonly BoardRunsOf[];
  kept: RunsByName<BoardRunRecord>;
  /** Each schedule's runs the board dispatched, the newest first, at most {@link BOARD_RUNS_KEPT}. */
  runs: BoardRunRecord[][];
  /** Their jobs: their states are read at each list. */
  jobs: { id: string; task: string }[];
  /** The answer while they are none: every schedule without runs. */
  none: RunsByName<BoardRun>;
}

/** The state the history recorded for job `id`, or null: absent where the history is off or refused. */
export type ArchivedState = (id: string) => Promise<JobState | null>;

/** A schedule whose board runs are asked for: its name and the task its jobs belong to. */
export interface BoardRunsOf {
  /** The schedule's name. */
  name: string;
  /** The task its runs' jobs belong to. */
  task: string;
}

/**
 * `runs` by when they ran, the newest first. The store lists them as they
 * were noted, and a run can be noted after a later one: a "Run now" whose
 * note lands after the leader's look noted the scheduler's next run.
 */
function byTimeNewestFirst(runs: readonly BoardRunRecord[]): BoardRunRecord[] {
  return runs.toSorted((a, b) => b.at - a.at);
}

/** What a list shows of `kept`: each of `schedules`' runs by the board, and their jobs. */
function shownOf(schedules: readonly BoardRunsOf[], kept: RunsByName<BoardRunRecord>): Shown {
  const runs = schedules.map(({ name }) =>
    byTimeNewestFirst(kept.get(name) ?? []).filter(({ by }) => by === "board")
      .slice(0, BOARD_RUNS_KEPT)
  );
  const jobs = schedules.flatMap(({ task }, i) =>
    runs[i].map(({ jobId }) => ({ id: jobId, task }))
  );
  const none = new Map(schedules.map(({ name }) => [name, []]));
  return { schedules, kept, runs, jobs, none };
}

/** The schedule runs of one board: kept in `store`, their states read from `source`. */
export class BoardRuns {
  readonly #source: TaskSource;
  readonly #store: ScheduleRunStore;
  /** The runs the last {@link list} read, per schedule: what a scheduler's run is checked against. */
  #kept: RunsByName<BoardRunRecord> = new Map();
  #shown: Shown | null = null;
  /** What {@link noteScheduled} last looked at and found noted: the same needs no look again. */
  #noted: { schedules: readonly ScheduleRecord[]; kept: RunsByName<BoardRunRecord> } | null = null;

  /** Runs kept in `store` of jobs `source` holds. */
  constructor(source: TaskSource, store: ScheduleRunStore) {
    this.#source = source;
    this.#store = store;
  }

  /**
   * The newest runs of each schedule with each job's state now: one read
   * of the store and one batch of the source; none where the source reads
   * no job states (nothing is noted then either). While the schedules and
   * the store's answer are the ones the last list had and no schedule has a
   * run of the board's, the same map as then.
   */
  async list(schedules: readonly BoardRunsOf[]): Promise<RunsByName<BoardRun>> {
    if (!this.#source.getJobStates) return new Map();
    const kept = await this.#store.listBoardRuns(
      schedules.map(({ name }) => name),
      SCHEDULE_RUNS_KEPT,
    );
    this.#kept = kept;
    let shown = this.#shown;
    if (shown === null || shown.schedules !== schedules || shown.kept !== kept) {
      shown = this.#shown = shownOf(schedules, kept);
    }
    if (shown.jobs.length === 0) return shown.none;
    const states = await this.#source.getJobStates(shown.jobs);
    let next = 0;
    const withState = (run: BoardRunRecord): BoardRun => {
      const { state, readAt } = states[next++];
      return readAt === undefined ? { ...run, state } : { ...run, state, stateAt: readAt };
    };
    return new Map(schedules.map(({ name }, i) => [name, shown.runs[i].map(withState)]));
  }

  /** Notes a run of `name` the board dispatched at `at`, keeping the newest. */
  async note(name: string, jobId: string, at: number): Promise<void> {
    if (!this.#source.getJobStates) return;
    await this.#store.recordBoardRun(name, { jobId, at, by: "board" }, SCHEDULE_RUNS_KEPT);
  }

  /**
   * Notes the scheduler's last run of each schedule that the runs the last
   * {@link list} read do not hold: no read, and a write only when a run is
   * new. The record is taskora's own `lastJobId` and `lastRun`, so replicas
   * noting the same run write the same entry, kept once.
   */
  async noteScheduled(schedules: readonly ScheduleRecord[]): Promise<void> {
    if (!this.#source.getJobStates) return;
    let kept = this.#kept;
    const noted = this.#noted;
    if (noted !== null && noted.schedules === schedules && noted.kept === kept) return;
    const unseen = schedules.filter(({ name, lastJobId, lastRun }) =>
      lastJobId !== null && lastRun !== null && kept.has(name) &&
      !kept.get(name)!.some(({ jobId }) => jobId === lastJobId)
    );
    for (const { name, lastJobId, lastRun } of unseen) {
      const run: BoardRunRecord = { jobId: lastJobId!, at: lastRun!, by: "scheduler" };
      await this.#store.recordBoardRun(name, run, SCHEDULE_RUNS_KEPT);
      // The store's answer is shared: noted in a copy.
      kept = this.#kept = new Map(kept).set(name, [run, ...kept.get(name)!]);
    }
    this.#noted = { schedules, kept };
  }

  /**
   * Notes the scheduler's last run of each of `schedules` the store does
   * not hold yet: one read of the kept runs (on Redis a GET of their
   * version, the lists only when it changed), a write only for a new run.
   */
  async keepUp(schedules: readonly ScheduleRecord[]): Promise<void> {
    if (!this.#source.getJobStates || schedules.length === 0) return;
    this.#kept = await this.#store.listBoardRuns(
      schedules.map(({ name }) => name),
      SCHEDULE_RUNS_KEPT,
    );
    await this.noteScheduled(schedules);
  }

  /**
   * Runs `offset` to `offset + limit - 1` of schedule `name` (of `task`),
   * newest first by when they ran, each with its outcome: one read of the store, one batch
   * of job states, and one history read per run taskora no longer holds.
   */
  async page(
    { name, task }: BoardRunsOf,
    offset: number,
    limit: number,
    archived: ArchivedState | null,
  ): Promise<ScheduleRunsPage> {
    if (!this.#source.getJobStates) return { runs: [], total: 0 };
    const kept = byTimeNewestFirst(
      (await this.#store.listBoardRuns([name], SCHEDULE_RUNS_KEPT)).get(name) ?? [],
    );
    const shown = kept.slice(offset, offset + limit);
    const states = await this.#source.getJobStates(shown.map(({ jobId }) => ({ id: jobId, task })));
    const runs: ScheduleRun[] = [];
    for (const [i, run] of shown.entries()) {
      const held = states[i].state;
      const recorded = held === null && archived !== null ? await archived(run.jobId) : null;
      runs.push({ ...run, state: held ?? recorded ?? "unknown", archived: recorded !== null });
    }
    return { runs, total: kept.length };
  }

  /** Forgets a deleted schedule's runs. */
  async forget(name: string): Promise<void> {
    await this.#store.forgetBoardRuns(name);
  }
}
