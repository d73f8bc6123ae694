/**
 * When a schedule runs next, computed exactly as taskora's scheduler does:
 * `every` counts from the given time, `cron` (with its time zone) is asked
 * for the first fire time after it, through cron-parser like the workers.
 *
 * @module
 */

import { CronExpressionParser } from "cron-parser";
import { invalidParam } from "../errors.ts";
import type { ScheduleConfig } from "./types.ts";

/**
 * Checks a time zone name the way cron-parser will use it; throws
 * `INVALID_PARAM` naming `timezone`.
 */
export function assertValidTimeZone(timezone: string): void {
  try {
    CronExpressionParser.parse("* * * * *", { tz: timezone }).next();
  } catch {
    throw invalidParam(
      "timezone",
      `${JSON.stringify(timezone)} is not an IANA time zone name (e.g. Europe/Berlin, UTC)`,
    );
  }
}

/**
 * Checks a cron expression (and time zone); throws `INVALID_PARAM` naming
 * the one that is wrong: the time zone is checked first, on its own, so a
 * bad zone is never blamed on the expression.
 */
export function assertValidCron(cron: string, timezone?: string): void {
  if (timezone) assertValidTimeZone(timezone);
  try {
    CronExpressionParser.parse(cron, timezone ? { tz: timezone } : undefined).next();
  } catch (error) {
    throw invalidParam(
      "cron",
      `${JSON.stringify(cron)} is not a valid schedule (${(error as Error).message})`,
    );
  }
}

/**
 * The next run after `from` (ms): `from + every`, or the cron expression's
 * next fire time in its time zone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextRunOf } from "./schedule_time.ts";
 * assert.deepEqual(nextRunOf({ every: 60_000 }, 1_000), 61000);
 * assert.equal(
 *   nextRunOf({ cron: "0 3 * * *", timezone: "UTC" }, Date.UTC(2026, 0, 1)),
 *   Date.UTC(2026, 0, 1, 3),
 * );
 * ```
 */
export function nextRunOf(
  config: Pick<ScheduleConfig, "every" | "cron" | "timezone">,
  from: number,
): number {
  if (config.every !== undefined) return from + config.every;
  if (config.cron !== undefined) {
    assertValidCron(config.cron, config.timezone);
    return CronExpressionParser.parse(config.cron, {
      currentDate: new Date(from),
      ...(config.timezone ? { tz: config.timezone } : {}),
    }).next().getTime();
  }
  throw invalidParam("schedule", "needs either every or cron");
}

/**
 * The `count` runs from `nextRun` on (ms): the stored next run, then each
 * following one as taskora's scheduler would compute it. None without a
 * next run (paused); only the stored one when the expression does not parse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { upcomingRunsOf } from "./schedule_time.ts";
 * assert.deepEqual(upcomingRunsOf({ every: 60_000 }, 1_000, 3), [1_000, 61_000, 121_000]);
 * ```
 */
export function upcomingRunsOf(
  config: Pick<ScheduleConfig, "every" | "cron" | "timezone">,
  nextRun: number | null,
  count: number,
): number[] {
  if (nextRun === null) return [];
  const runs = [nextRun];
  try {
    while (runs.length < count) runs.push(nextRunOf(config, runs[runs.length - 1]));
  } catch {
    // A timing that no longer reads: only the run the scheduler stored is known.
  }
  return runs;
}
