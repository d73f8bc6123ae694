/**
 * A task's workers: last taken and finished, live lock holders, and the
 * fewest live workers they allow.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import {
  type TaskWorkersResponse,
  WORKERS_ACTIVE_SAMPLE,
  WORKERS_EVENT_DEPTH,
} from "../../contract/workers.ts";
import { Millis } from "./common.ts";
import type { Same } from "../../same.ts";

/** When the task's workers last took and finished a job. */
const ActivitySchema = z.strictObject({
  lastTakenAt: Millis.nullable().openapi({
    description: "When the newest `active` entry of the task's event stream was written (a " +
      `worker claimed a job), among its newest ${WORKERS_EVENT_DEPTH} entries; null when none of ` +
      "them is one: then no job was taken since `coveredSince`",
  }),
  lastFinishedAt: Millis.nullable().openapi({
    description: "When the newest `completed` or `failed` entry among them was written",
  }),
  scanned: z.number().int().openapi({ description: "Stream entries looked at, newest first" }),
  coveredSince: Millis.nullable().openapi({
    description: "When the oldest entry looked at was written; null for an empty stream",
  }),
});

/** A task's workers, when the source reads them. */
export const TaskWorkersSchema = z.union([
  z.strictObject({
    task: z.string(),
    readAt: Millis,
    known: z.literal(true),
    activity: ActivitySchema,
    active: z.number().int().openapi({ description: "Jobs in the active list" }),
    sampled: z.number().int().openapi({
      description: `Active jobs whose locks were read: the ${WORKERS_ACTIVE_SAMPLE} claimed last`,
    }),
    holders: z.array(z.strictObject({
      token: z.string(),
      jobId: z.string(),
      ttlMs: z.number().nullable(),
    })).openapi({
      description: "Distinct live lock tokens (`<job>:lock`, random per attempt, renewed by " +
        "the worker running it) with the job each locks",
    }),
    unlocked: z.array(z.string()).openapi({
      description: "Active jobs read with no lock: their worker is gone, or just finishing",
    }),
    estimate: z.strictObject({
      atLeast: z.number().int(),
      basis: z.string(),
    }).openapi({
      description: "The fewest live workers the locks allow: taskora keeps no worker " +
        "registry and idle workers leave no trace, so this is a lower bound. With the App " +
        "(its task concurrency c) ceil(holders / c), else 1 when any lock is live; `basis` " +
        "says which",
    }),
  }),
  z.strictObject({
    task: z.string(),
    readAt: Millis,
    known: z.literal(false),
    reason: z.string(),
  }),
]).openapi("TaskWorkers");
true satisfies Same<z.output<typeof TaskWorkersSchema>, TaskWorkersResponse>;
