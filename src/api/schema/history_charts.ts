/**
 * The history's charts: a range of rollup buckets, and a task's week.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import {
  HISTORY_RANGES,
  type HistoryFigures,
  type HistoryRollups,
  type TaskWeek,
} from "../../contract/history_charts.ts";
import type { Same } from "../../same.ts";
import { Millis } from "./common.ts";

const count = z.number().int();

const PercentilesSchema = z.strictObject({ p50: z.number(), p95: z.number(), p99: z.number() })
  .openapi("Percentiles", {
    description: "ms, read from the merged sketches of the span (2 % relative accuracy)",
  });

/** The figures of a span: counters, failure rate, wait and run percentiles. */
const figures = {
  arrivals: count,
  completed: count,
  failed: count,
  expired: count,
  cancelled: count,
  retried: count.openapi({ description: "Attempts that failed and were retried" }),
  reruns: count.openapi({ description: "Runs of jobs that had already ended one" }),
  failureRate: z.number().nullable().openapi({
    description: "failed / (completed + failed), or null when none ended so",
  }),
  wait: PercentilesSchema.nullable(),
  run: PercentilesSchema.nullable(),
};

const HistoryFiguresSchema = z.strictObject(figures).openapi("HistoryFigures");
true satisfies Same<z.output<typeof HistoryFiguresSchema>, HistoryFigures>;

/** `GET /history/rollups`. */
export const HistoryRollupsSchema = z.strictObject({
  asOf: Millis,
  range: z.enum(HISTORY_RANGES),
  resolution: z.enum(["minute", "hour", "day"]),
  bucketMs: count,
  from: Millis,
  to: Millis,
  task: z.string().nullable(),
  version: count.nullable(),
  points: z.array(z.strictObject({ at: Millis, ...figures })).openapi({
    description: "Every bucket of the range, oldest first, the empty ones as zeros",
  }),
  totals: HistoryFiguresSchema,
}).openapi("HistoryRollups");
true satisfies Same<z.output<typeof HistoryRollupsSchema>, HistoryRollups>;

const HistoryWindowSchema = z.strictObject({ from: Millis, to: Millis, ...figures });

/** `GET /history/week`. */
export const TaskWeekSchema = z.strictObject({
  asOf: Millis,
  task: z.string(),
  current: HistoryWindowSchema,
  previous: HistoryWindowSchema.nullable(),
}).openapi("TaskWeek");
true satisfies Same<z.output<typeof TaskWeekSchema>, TaskWeek>;
