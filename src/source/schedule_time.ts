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
 * Checks a cron expression (and time zone); throws `INVALID_PARAM` naming
 * what is wrong.
 */
export function assertValidCron(cron: string, timezone?: string): void {
  try {
    CronExpressionParser.parse(cron, timezone ? { tz: timezone } : undefined).next();
  } catch (error) {
    throw invalidParam(
      timezone ? "cron or timezone" : "cron",
      `${JSON.stringify(cron)}${timezone ? ` in ${timezone}` : ""} is not a valid schedule (${
        (error as Error).message
      })`,
    );
  }
}

/**
 * The next run after `from` (ms): `from + every`, or the cron expression's
 * next fire time in its time zone.
 *
 * @example
 * ```ts
 * import { nextRunOf } from "./schedule_time.ts";
 * nextRunOf({ every: 60_000 }, 1_000); // 61000
 * nextRunOf({ cron: "0 3 * * *", timezone: "UTC" }, Date.UTC(2026, 0, 1)); // 2026-01-01T03:00Z
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
