/**
 * A rule's figures in words: a measured figure in its threshold's unit, and
 * the condition a rule fires on ("above 5", "longer than 10m").
 *
 * @module
 */
import { formatCount, formatElapsed } from "../../lib/format.ts";
import type { AlertRuleView, ThresholdUnit } from "./types.ts";

/**
 * A figure in `unit`: `1,200`, `12.5%`, `4m 10s`; null (not measurable) is `—`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFigure } from "./threshold.ts";
 * assert.equal(formatFigure(12.345, "percent"), "12.3%");
 * ```
 */
export function formatFigure(value: number | null, unit: ThresholdUnit): string {
  if (value === null || !Number.isFinite(value)) return "—";
  if (unit === "percent") return `${Math.round(value * 10) / 10}%`;
  if (unit === "duration") return formatElapsed(value);
  return formatCount(value);
}

/** When the rule fires, in words: `above 5`, `above 20% of ≥ 20 finished in 15m`, `longer than 10m`. */
export function describeCondition(
  rule: Pick<AlertRuleView, "kind" | "threshold" | "unit" | "windowMs" | "minFinished">,
): string {
  if (rule.unit === "none") return "a new error shape";
  const limit = formatFigure(rule.threshold, rule.unit);
  if (rule.kind === "failureRate" && rule.windowMs !== null) {
    return `above ${limit} over ${formatElapsed(rule.windowMs)}, ≥ ${
      formatCount(rule.minFinished ?? 0)
    } finished`;
  }
  return rule.unit === "duration" ? `longer than ${limit}` : `above ${limit}`;
}

const UNITS: readonly [string, number][] = [["d", 86_400_000], ["h", 3_600_000], [
  "m",
  60_000,
], ["s", 1000]];

/**
 * Milliseconds as the file format writes a duration: the largest unit that
 * divides it (`"15m"`, `"90s"`), else the milliseconds (`"1500"`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationText } from "./threshold.ts";
 * assert.equal(durationText(900_000), "15m");
 * assert.equal(durationText(1500), "1500");
 * ```
 */
export function durationText(ms: number): string {
  if (ms === 0) return "0s";
  const unit = UNITS.find(([, size]) => ms % size === 0);
  return unit ? `${ms / unit[1]}${unit[0]}` : String(ms);
}
