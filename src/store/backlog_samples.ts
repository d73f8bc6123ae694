/**
 * The backlog samples' part of the {@link BoardStore}: one sample a minute
 * per task, what the drain forecast compares the backlog now with (see
 * `../contract/forecast.ts`).
 *
 * @module
 */

import type { BacklogSample } from "../contract/forecast.ts";

/** The backlog samples every board on the store shares. */
export interface BacklogSampleStore {
  /**
   * Keeps one minute's backlog sample (task → its backlog, when it was
   * taken and what the minute's counters held then) for `keepMs`; a second
   * write of the same minute merges into it.
   */
  writeBacklogSample(
    minute: number,
    samples: ReadonlyMap<string, BacklogSample>,
    keepMs: number,
  ): Promise<void>;
  /** A task's sample in each named minute, null where none is kept. */
  readBacklogSamples(task: string, minutes: readonly number[]): Promise<(BacklogSample | null)[]>;
}
