/**
 * A task's scaling signal.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { ScalingResponse } from "../../contract/scaling.ts";
import { Millis } from "./common.ts";
import type { Same } from "../../same.ts";

const count = (description: string) => z.number().int().openapi({ description });
const rate = (description: string) => z.number().nullable().openapi({ description });

/** `GET /tasks/{task}/scaling`. */
export const ScalingSchema = z.strictObject({
  task: z.string(),
  readAt: Millis,
  backlog: z.strictObject({
    waiting: count("On the wait list, not held by a concurrency key"),
    prioritized: count("On the prioritized set, not held by a concurrency key"),
    delayed: count("Delayed or retrying, due now"),
    held: count("Queued, but their concurrency key's running jobs are at its limit"),
  }).openapi({ description: "The effective backlog by kind; each job counts in one" }),
  backlogTotal: count("The four kinds added up"),
  examined: count("Queued jobs looked at for a concurrency key (the next 1,000 of each queue)"),
  queued: count("Jobs on the wait list and the prioritized set; above examined, held is a floor"),
  oldestWaitMs: z.number().openapi({ description: "How long the oldest waiting job has waited" }),
  arrivalRate: rate("Jobs arriving a minute over the last 10 (the drain forecast's)"),
  completionRate: rate("Jobs finishing a minute over the last 10"),
  runMs: rate("Median run time of the newest finished jobs, ms"),
  workersSeen: z.strictObject({ atLeast: z.number().int(), basis: z.string() }).nullable()
    .openapi({ description: "Live workers seen, a lower bound (GET /tasks/{task}/workers)" }),
  targetWaitMs: z.number().int(),
  suggestion: z.strictObject({ workers: z.number().int(), basis: z.string() }).nullable()
    .openapi({
      description: "ceil(arrivalRate × runMs + backlogTotal × runMs / targetWaitMs), at least " +
        "1 while jobs wait or arrive; null without a run time or an arrival rate",
    }),
}).openapi("TaskScaling");
true satisfies Same<z.output<typeof ScalingSchema>, ScalingResponse>;
