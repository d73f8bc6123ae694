/**
 * A schedule's interval (`every`, in ms) in the largest unit that divides
 * it evenly: what the API's words (`Every 7 days`) and the edit form's
 * duration (`7d`) are both written from.
 *
 * @module
 */

const UNITS = [
  { ms: 86_400_000, word: "day", short: "d" },
  { ms: 3_600_000, word: "hour", short: "h" },
  { ms: 60_000, word: "minute", short: "m" },
  { ms: 1000, word: "second", short: "s" },
] as const;

/** An interval as a whole count of its largest unit. */
export interface EveryUnit {
  count: number;
  /** The unit's noun, singular: `day`, …, `millisecond`. */
  word: string;
  /** The unit as a duration suffix: `d`, `h`, `m`, `s`, `ms`. */
  short: string;
}

/**
 * `ms` in its largest whole unit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { largestUnit } from "./every_unit.ts";
 * assert.deepEqual(largestUnit(604_800_000), { count: 7, word: "day", short: "d" });
 * assert.deepEqual(largestUnit(1500), { count: 1500, word: "millisecond", short: "ms" });
 * ```
 */
export function largestUnit(ms: number): EveryUnit {
  const unit = UNITS.find((u) => ms >= u.ms && ms % u.ms === 0);
  return unit
    ? { count: ms / unit.ms, word: unit.word, short: unit.short }
    : { count: ms, word: "millisecond", short: "ms" };
}
