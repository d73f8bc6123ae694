/**
 * What `GET /schedules` answers of each schedule, as JSON text, written once
 * per change rather than per request: the list asked every few seconds
 * showed the same schedules each time, and presenting them (formatters,
 * redaction, the timing in words) and writing their JSON was most of what a
 * request cost the board. A text is kept by the record it was written from,
 * which the source answers again while the schedule is unchanged
 * (`TaskSource.listSchedules`), with the board's runs it showed (compared by
 * value: their states are read at each request) and whether it holds the
 * data (one text for a user who may read it, one for one who may not). A
 * record the source no longer answers leaves with its texts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ScheduleTexts } from "./texts.ts";
 * let written = 0;
 * const texts = new ScheduleTexts((schedule, runs, withData) => {
 *   written++;
 *   const data = withData ? schedule.config.data : null;
 *   return JSON.stringify({ name: schedule.name, runs: runs.length, data });
 * });
 * const schedule = {
 *   name: "nightly",
 *   config: { task: "report", cron: "0 3 * * *", data: { scope: "all" } },
 *   nextRun: 1_000,
 *   lastRun: null,
 *   lastJobId: null,
 *   lastRunStatus: null,
 *   paused: false,
 * };
 * assert.equal(texts.text(schedule, [], true), '{"name":"nightly","runs":0,"data":{"scope":"all"}}');
 * assert.equal(texts.text(schedule, [], false), '{"name":"nightly","runs":0,"data":null}');
 * texts.text(schedule, [], true);
 * assert.equal(written, 2);
 * ```
 *
 * @module
 */

import type { BoardRun, ScheduleRecord } from "../contract/schedules.ts";
import { sameItems } from "../same_items.ts";

/** The JSON text of a schedule as answered: showing `runs`, with its data or without it. */
export type ScheduleWriter = (
  schedule: ScheduleRecord,
  runs: readonly BoardRun[],
  withData: boolean,
) => string;

/** The texts written of one record: with the runs they show, without data (0) and with (1). */
interface Written {
  runs: readonly BoardRun[];
  texts: [string?, string?];
}

/** The last list written: its records, each one's runs and whether it held its data, and its text. */
interface WrittenList {
  schedules: readonly ScheduleRecord[];
  /** The runs as given (a map answered again unchanged is the same map), and as shown. */
  given: ReadonlyMap<string, readonly BoardRun[]>;
  runs: readonly (readonly BoardRun[])[];
  withData: readonly boolean[];
  text: string;
}

/** Whether two lists of runs show the same runs, in the same order, in the same states. */
function sameRuns(a: readonly BoardRun[], b: readonly BoardRun[]): boolean {
  return sameItems(a, b, sameFields);
}

/** Whether two flat objects have the same fields with the same values. */
function sameFields(a: object, b: object): boolean {
  const fields = Object.keys(a) as (keyof typeof a)[];
  return fields.length === Object.keys(b).length && fields.every((key) => a[key] === b[key]);
}

/** The JSON texts of the schedules answered lately, by record. */
export class ScheduleTexts {
  readonly #written = new WeakMap<ScheduleRecord, Written>();
  readonly #write: ScheduleWriter;
  #lastList: WrittenList | null = null;

  /** Keeps what `write` writes. */
  constructor(write: ScheduleWriter) {
    this.#write = write;
  }

  /**
   * The JSON text of the list of `schedules`, each showing its `runs` (none
   * when absent), with its data where `withData` says so. The same records
   * showing the same runs to a user with the same access as the last list
   * are answered as the last list's text, not joined again; the same list
   * and the same map of runs, without looking at a schedule.
   */
  list(
    schedules: readonly ScheduleRecord[],
    runs: ReadonlyMap<string, readonly BoardRun[]>,
    withData: readonly boolean[],
  ): string {
    const last = this.#lastList;
    const sameAccess = last !== null && sameItems(withData, last.withData);
    if (sameAccess && schedules === last.schedules && runs === last.given) return last.text;
    const shown = schedules.map(({ name }) => runs.get(name) ?? []);
    if (
      sameAccess && sameItems(schedules, last.schedules) &&
      shown.every((runs, i) => sameRuns(runs, last.runs[i]))
    ) {
      this.#lastList = { ...last, schedules, given: runs };
      return last.text;
    }
    const texts = schedules.map((schedule, i) => this.text(schedule, shown[i], withData[i]));
    const text = `[${texts.join(",")}]`;
    this.#lastList = { schedules, given: runs, runs: shown, withData, text };
    return text;
  }

  /** The JSON text of `schedule` showing `runs`, with its data or without. */
  text(schedule: ScheduleRecord, runs: readonly BoardRun[], withData: boolean): string {
    let written = this.#written.get(schedule);
    if (written === undefined || !sameRuns(written.runs, runs)) {
      written = { runs, texts: [] };
      this.#written.set(schedule, written);
    }
    const slot = withData ? 1 : 0;
    return written.texts[slot] ??= this.#write(schedule, runs, withData);
  }
}
