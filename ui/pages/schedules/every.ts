/**
 * A schedule's interval (`every`, in ms) in words for the table
 * (`every 7 days`) and as the short duration the edit form and the API take
 * (`7d`): always in the largest unit that divides it evenly.
 *
 * @module
 */

import { countOf } from "../../../src/contract/plural.ts";

const UNITS = [
  { ms: 86_400_000, word: "day", short: "d" },
  { ms: 3_600_000, word: "hour", short: "h" },
  { ms: 60_000, word: "minute", short: "m" },
  { ms: 1000, word: "second", short: "s" },
] as const;

function largestUnit(ms: number): { count: number; word: string; short: string } {
  const unit = UNITS.find((u) => ms >= u.ms && ms % u.ms === 0);
  return unit
    ? { count: ms / unit.ms, word: unit.word, short: unit.short }
    : { count: ms, word: "millisecond", short: "ms" };
}

/** `604800000` → `every 7 days`, `1000` → `every second`, `1500` → `every 1500 milliseconds`. */
export function describeEvery(ms: number): string {
  const { count, word } = largestUnit(ms);
  return count === 1 ? `every ${word}` : `every ${countOf(count, word)}`;
}

/** `604800000` → `7d`, `90000` → `90s`, `1500` → `1500ms`: a duration the API parses back. */
export function everyAsDuration(ms: number): string {
  const { count, short } = largestUnit(ms);
  return `${count}${short}`;
}
