/**
 * A schedule's timing as `GET /schedules` shows it (in words, and its runs
 * ahead), worded once per change rather than per request: a cron in a time
 * zone takes milliseconds to word and step through (cronstrue, then
 * cron-parser for each run ahead), and the list asked every few seconds
 * showed the same words each time. Kept by what they depend on, the timing
 * and the next run (which moves at each run), least recently asked first
 * out past the bound.
 *
 * @module
 */

import { type ScheduleConfig, UPCOMING_RUNS } from "../contract/schedules.ts";
import { upcomingRunsOf } from "../source/schedule_time.ts";
import { describeSchedule } from "./words.ts";

/** A schedule's timing as shown: its words and its next runs (ms). */
export interface ScheduleTiming {
  /** How it runs in words; null when the stored timing does not read. */
  description: string | null;
  /**
   * The next {@link UPCOMING_RUNS} runs from the stored next run; none while
   * paused. The same array for every answer: never changed in place.
   */
  upcomingRuns: number[];
}

/** How many timings a board keeps by default: far more than the schedules one shows. */
export const TIMINGS_KEPT = 4096;

/**
 * The timings shown lately, by timing and next run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ScheduleTimings } from "./timings.ts";
 * const timings = new ScheduleTimings();
 * const shown = timings.of({ task: "ping", every: 30_000 }, 1_000);
 * assert.equal(shown.description, "Every 30 seconds");
 * assert.deepEqual(shown.upcomingRuns, [1_000, 31_000, 61_000, 91_000, 121_000]);
 * assert.equal(timings.of({ task: "ping", every: 30_000 }, 1_000), shown);
 * ```
 */
export class ScheduleTimings {
  /** Oldest asked first (a Map keeps insertion order; asking moves one to the end). */
  readonly #kept = new Map<string, ScheduleTiming>();
  readonly #max: number;

  /** Keeps at most `max` timings. */
  constructor(max = TIMINGS_KEPT) {
    this.#max = max;
  }

  /** How many timings are kept. */
  get size(): number {
    return this.#kept.size;
  }

  /** The timing of `config` with its next run at `nextRun` (null: paused). */
  of(config: ScheduleConfig, nextRun: number | null): ScheduleTiming {
    const key = JSON.stringify([config.every, config.cron, config.timezone, nextRun]);
    const kept = this.#kept.get(key);
    if (kept) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const timing: ScheduleTiming = {
      description: describeSchedule(config),
      upcomingRuns: upcomingRunsOf(config, nextRun, UPCOMING_RUNS),
    };
    this.#kept.set(key, timing);
    if (this.#kept.size > this.#max) this.#kept.delete(this.#kept.keys().next().value!);
    return timing;
  }
}
