/**
 * Every run a schedule makes, noted while nobody looks: taskora keeps only
 * a schedule's last job (`lastJobId`, overwritten at each run), and a
 * board notes the runs it sees when it lists the schedules. While the
 * board records history, its leader also looks every {@link RUN_LOOK_MS}
 * (the schedules hash and next-run set, one round trip, and the kept
 * runs' version), so a schedule's runs are kept whether or not anyone
 * opens the schedules page; a schedule that runs more often than that
 * keeps the runs its looks see.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RUN_LOOK_MS } from "./run_keeper.ts";
 * assert.equal(RUN_LOOK_MS, 5_000);
 * ```
 *
 * @module
 */

import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";
import { unwatched } from "../source/unwatched.ts";
import type { ScheduleRunStore } from "../store/schedule_runs.ts";
import type { Timers } from "../timers.ts";
import { BoardRuns } from "./board_runs.ts";

/** How often the leader looks at the schedules' last runs, ms. */
export const RUN_LOOK_MS = 5_000;

/** What {@link startScheduleRunKeeper} needs. */
export interface ScheduleRunKeeperOptions {
  /** The board's source: its schedules. */
  source: TaskSource;
  /** Where the runs are kept. */
  store: ScheduleRunStore;
  /** The board's leadership: only the leader looks. */
  leadership: Leadership;
  /** The board's timers. */
  timers: Timers;
}

/** The keeper; `look` runs a look now (what each period does). */
export interface ScheduleRunKeeper {
  look(): Promise<void>;
  close(): void;
}

/** Starts the leader's looks at the schedules' last runs. */
export function startScheduleRunKeeper(options: ScheduleRunKeeperOptions): ScheduleRunKeeper {
  const { source, store, leadership, timers } = options;
  const runs = new BoardRuns(source, store);
  let running: Promise<void> | null = null;
  let failing = false;
  const look = () => {
    if (!leadership.isLeading) return Promise.resolve();
    // The board's own look: it keeps no idle board watched. A slow one is not stacked on.
    running ??= unwatched(async () => await runs.keepUp(await source.listSchedules()))
      .then(() => void (failing = false), (failure) => {
        // Said once per outage, not every look.
        if (!failing) console.error("queue-board: cannot note the scheduler's runs", failure);
        failing = true;
      })
      .finally(() => running = null);
    return running;
  };
  const id = timers.setInterval(() => void look(), RUN_LOOK_MS);
  timers.unref(id);
  return { look, close: () => timers.clearInterval(id) };
}
