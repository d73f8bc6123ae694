/**
 * The rules of a schedule change, in one place: the route reads a request
 * body into a patch with {@link parseSchedulePatch}; every source is held
 * to the same rules by `checked.ts` ({@link checkSchedulePatch}: a source
 * may be called without the route), and the Redis and memory sources apply
 * it to the stored schedule with {@link applySchedulePatch}.
 *
 * @module
 */

import { parseDuration } from "../duration.ts";
import { invalidParam } from "../errors.ts";
import { keepMasked } from "./keep_masked.ts";
import { assertValidCron } from "./schedule_time.ts";
import type { SchedulePatch } from "./types.ts";

/** The fields a schedule change may carry. */
export const SCHEDULE_PATCH_FIELDS = [
  "cron",
  "every",
  "timezone",
  "data",
  "onMissed",
  "overlap",
] as const;

/** The shortest interval between two runs, ms. */
export const MIN_EVERY_MS = 1000;

/** The longest cron expression taken. */
const MAX_CRON_LENGTH = 200;

/** The longest missed-run policy taken. */
const MAX_ON_MISSED_LENGTH = 100;

/** What to do with missed runs, as taskora's scheduler reads it. */
const MISSED_POLICY = /^(skip|catch-up|catch-up-limit:\d+)$/;

function badEvery(got: unknown) {
  return invalidParam(
    "every",
    `must be at least ${MIN_EVERY_MS} ms, as ms or a duration like "30s", "5m", "2h", "1d" (got ${
      JSON.stringify(got)
    })`,
  );
}

/**
 * Throws `INVALID_PARAM`, naming the field at fault, unless `patch` is a
 * change taskora's scheduler can run: `cron` or `every`, not both; a cron
 * expression that is not blank, with a valid time zone; a whole interval of
 * at least {@link MIN_EVERY_MS}; a known missed-run policy; a boolean
 * `overlap` and `paused`.
 */
export function checkSchedulePatch(patch: SchedulePatch): void {
  const { cron, every, timezone, onMissed, overlap } = patch;
  if (cron !== undefined && every !== undefined) {
    throw invalidParam("cron", "cron and every are exclusive: send one");
  }
  if (cron !== undefined) {
    if (typeof cron !== "string") {
      throw invalidParam("cron", `must be a string (got ${typeof cron})`);
    }
    if (cron.trim() === "") throw invalidParam("cron", "must be a cron expression, not blank");
    if (cron.length > MAX_CRON_LENGTH) {
      throw invalidParam("cron", `must be at most ${MAX_CRON_LENGTH} characters`);
    }
  }
  if (every !== undefined && !(Number.isSafeInteger(every) && every >= MIN_EVERY_MS)) {
    throw badEvery(every);
  }
  if (timezone !== undefined && timezone !== null && typeof timezone !== "string") {
    throw invalidParam("timezone", "must be an IANA time zone name or null");
  }
  if (cron !== undefined || timezone) assertValidCron(cron ?? "* * * * *", timezone || undefined);
  if (onMissed !== undefined) {
    if (typeof onMissed !== "string") {
      throw invalidParam("onMissed", `must be a string (got ${typeof onMissed})`);
    }
    if (onMissed.length > MAX_ON_MISSED_LENGTH) {
      throw invalidParam("onMissed", `must be at most ${MAX_ON_MISSED_LENGTH} characters`);
    }
    if (!MISSED_POLICY.test(onMissed)) {
      throw invalidParam(
        "onMissed",
        `must be skip, catch-up or catch-up-limit:N (got "${onMissed}")`,
      );
    }
  }
  if (overlap !== undefined && typeof overlap !== "boolean") {
    throw invalidParam("overlap", "must be a boolean");
  }
  if (patch.paused !== undefined && typeof patch.paused !== "boolean") {
    throw invalidParam("paused", "must be a boolean");
  }
}

/**
 * A patch split into what it changes of the schedule's config and whether it
 * pauses (true) or resumes (false) it: `change` is null when the patch
 * pauses or resumes and changes nothing else, so a pause writes no config.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pausingOf } from "./schedule_patch.ts";
 * assert.deepEqual(pausingOf({ paused: true }), { change: null, paused: true });
 * assert.deepEqual(pausingOf({ every: 60_000 }), { change: { every: 60_000 }, paused: undefined });
 * ```
 */
export function pausingOf(
  patch: SchedulePatch,
): { change: SchedulePatch | null; paused?: boolean } {
  const { paused, ...change } = patch;
  const changes = SCHEDULE_PATCH_FIELDS.some((field) => change[field] !== undefined);
  return { change: paused === undefined || changes ? change : null, paused };
}

/**
 * Reads a `PUT /schedules/{name}` body (its fields already limited to
 * {@link SCHEDULE_PATCH_FIELDS}) into a checked patch; `every` may be a
 * duration (`"5m"`).
 */
export function parseSchedulePatch(body: Readonly<Record<string, unknown>>): SchedulePatch {
  if (Object.keys(body).length === 0) {
    throw invalidParam("body", `nothing to change (fields: ${SCHEDULE_PATCH_FIELDS.join(", ")})`);
  }
  const patch = { ...body } as SchedulePatch;
  if (body.every !== undefined) {
    const every = parseDuration(body.every);
    if (every === null) throw badEvery(body.every);
    patch.every = every;
  }
  checkSchedulePatch(patch);
  return patch;
}

/**
 * A stored schedule with a patch applied, as taskora's ScheduleManager.update
 * merges it: `cron` drops `every`; `every` drops `cron` and `timezone`;
 * `timezone: null` removes it; other fields replace their value, but under
 * each of `maskedKeys` the stored data's value is kept. Fields the board
 * does not know, `lastRun` and `lastJobId` are kept as they are.
 *
 * The patch itself is checked before the source is asked
 * ({@link checkSchedulePatch}, through `checked.ts`).
 *
 * @throws {BoardError} `INVALID_PARAM` for a result that is not a schedule
 * (a time zone on an interval, neither `every` nor `cron`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applySchedulePatch } from "./schedule_patch.ts";
 * assert.deepEqual(
 *   applySchedulePatch({ task: "report", cron: "0 3 * * *", timezone: "UTC", lastRun: 5 }, { every: 60_000 }),
 *   { task: "report", lastRun: 5, every: 60000 },
 * );
 * ```
 */
export function applySchedulePatch(
  stored: Readonly<Record<string, unknown>>,
  patch: SchedulePatch,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...stored };
  if (patch.cron !== undefined) {
    next.cron = patch.cron;
    delete next.every;
  }
  if (patch.every !== undefined) {
    next.every = patch.every;
    delete next.cron;
    delete next.timezone;
  }
  if (patch.timezone === null) delete next.timezone;
  else if (patch.timezone !== undefined) next.timezone = patch.timezone;
  if (patch.data !== undefined) {
    next.data = keepMasked(stored.data, patch.data, patch.maskedKeys ?? [], "data");
  }
  if (patch.onMissed !== undefined) next.onMissed = patch.onMissed;
  if (patch.overlap !== undefined) next.overlap = patch.overlap;

  if (typeof next.cron === "string") {
    assertValidCron(next.cron, typeof next.timezone === "string" ? next.timezone : undefined);
  } else if (next.timezone !== undefined) {
    throw invalidParam("timezone", "only applies to a cron schedule");
  } else if (typeof next.every !== "number") {
    throw invalidParam("schedule", "needs either every or cron");
  }
  return next;
}
