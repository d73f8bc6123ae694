/**
 * The overview: every task's counts and health, the totals, the store.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { OverviewResponse } from "../../contract/overview.ts";
import { HEALTH_EVENT_DEPTH } from "../../contract/workers.ts";
import { Millis, QueueStatsSchema, TotalsSchema } from "./common.ts";
import { QueueLatencySchema, TaskRateSchema } from "./latency.ts";
import type { Same } from "../../same.ts";

/** How many tasks have each verdict. */
const HealthCountsSchema = z.strictObject({
  critical: z.number().int(),
  warning: z.number().int(),
  healthy: z.number().int(),
  idle: z.number().int(),
}).openapi("HealthCounts");

/** The tasks sharing a name prefix. */
const TaskGroupSchema = z.strictObject({
  prefix: z.string().openapi({
    description: 'The name up to and with its first ".", ":" or "/"; the whole name without one',
  }),
  tasks: z.number().int(),
  stats: QueueStatsSchema,
  health: HealthCountsSchema,
}).openapi("TaskGroup");

/** The overview. */
export const OverviewSchema = z.strictObject({
  tasks: z.array(z.strictObject({
    name: z.string(),
    stats: QueueStatsSchema,
    retryingAsOf: Millis.nullable(),
    health: z.strictObject({
      status: z.enum(["healthy", "warning", "critical", "idle"]),
      reason: z.string(),
      failureRate: z.number().nullable(),
      noProgress: z.boolean().openapi({
        description: "Jobs wait (or a due delayed or retrying job is overdue by as long: " +
          "taskora promotes it only when a worker asks for a job) and none was taken for longer " +
          "than `health.maxIdleMs`, while no active job holds a live lock (then critical; with " +
          "one, its workers are busy: a warning). How long none was: since the newest `active` " +
          `entry among the newest ${HEALTH_EVENT_DEPTH} entries of the task's event stream (one ` +
          "bounded read per task with jobs waiting), or, with none among them, since the oldest " +
          "of them",
      }),
    }),
    latency: QueueLatencySchema,
    rate: TaskRateSchema,
  })),
  matched: z.number().int().openapi({ description: "How many tasks match the query" }),
  totals: TotalsSchema,
  healthCounts: HealthCountsSchema,
  asOf: Millis.openapi({
    description: "When every figure was true: the leader's last pass over the live state, " +
      "at most one stats interval old, or the answer's own read when that was stale",
  }),
  groups: z.array(TaskGroupSchema).optional().openapi({
    description: "With group=prefix: the tasks matching q and health, by name prefix",
  }),
  redis: z.strictObject({
    version: z.string(),
    usedMemory: z.string(),
    uptime: z.number(),
    connected: z.boolean(),
  }),
  uptime: z.number().openapi({ description: "ms since the board started" }),
}).openapi("Overview");
true satisfies Same<z.output<typeof OverviewSchema>, OverviewResponse>;
