/**
 * Durations as operators write them: `"30s"`, `"5m"`, `"2h"`, `"1d"`, or ms.
 *
 * @module
 */

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Parses a duration to milliseconds, or returns null when it is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseDuration("5m"), 300000);
 * assert.deepEqual(parseDuration(1500), 1500);
 * assert.deepEqual(parseDuration("soon"), null);
 * ```
 */
export function parseDuration(value: unknown): number | null {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? value : null;
  }
  if (typeof value !== "string") return null;
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] ?? "ms"];
  return Number.isSafeInteger(ms) ? ms : null;
}
