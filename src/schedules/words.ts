/**
 * How a schedule runs, in words: a cron expression through cronstrue (a
 * kept library), its hours read in the schedule's own time zone, which is
 * named; an interval in its largest whole unit. Worded here once, on the
 * server: `GET /schedules` answers it as `description`, and the UI shows
 * that, so the bundle carries no cron wording of its own.
 *
 * @module
 */

import cronstrue from "cronstrue";
import { largestUnit } from "../contract/every_unit.ts";
import { countOf } from "../contract/plural.ts";
import type { ScheduleConfig } from "../contract/schedules.ts";

/** `604800000` → `Every 7 days`, `1000` → `Every second`, `1500` → `Every 1500 milliseconds`. */
function describeEvery(ms: number): string {
  const { count, word } = largestUnit(ms);
  return count === 1 ? `Every ${word}` : `Every ${countOf(count, word)}`;
}

/** Fixed times of day: each of the seconds, minutes and hours fields is one or more numbers. */
const FIXED_TIME = /^\d+(,\d+)*$/;
const ANY_DAY = new Set(["*", "?"]);

/**
 * Whether `cron` runs at fixed times on every day: cronstrue words `30 4 * * *`
 * as "At 04:30" alone, which reads as once.
 */
function runsDaily(cron: string): boolean {
  const fields = cron.trim().split(/\s+/);
  if (fields.length < 5) return false;
  const days = fields.slice(-3);
  const times = fields.slice(0, -3);
  return days.every((field) => ANY_DAY.has(field)) &&
    times.every((field) => FIXED_TIME.test(field));
}

/** A cron expression in words, or null when cronstrue cannot read it. */
function describeCron(cron: string): string | null {
  try {
    const words = cronstrue.toString(cron, {
      use24HourTimeFormat: true,
      throwExceptionOnParseError: true,
    });
    return runsDaily(cron) ? `${words}, every day` : words;
  } catch {
    return null;
  }
}

/**
 * A schedule's timing in words, or null when it has none that reads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeSchedule } from "./words.ts";
 * assert.equal(
 *   describeSchedule({ task: "report", cron: "30 4 * * *", timezone: "Europe/Berlin" }),
 *   "At 04:30, every day (Europe/Berlin)",
 * );
 * assert.equal(describeSchedule({ task: "ping", every: 30_000 }), "Every 30 seconds");
 * ```
 */
export function describeSchedule(
  config: Pick<ScheduleConfig, "every" | "cron" | "timezone"> & { task: string },
): string | null {
  if (config.every !== undefined) return describeEvery(config.every);
  if (config.cron === undefined) return null;
  const words = describeCron(config.cron);
  return words === null ? null : `${words} (${config.timezone ?? "worker time zone"})`;
}
