/**
 * A task's drain forecast.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { ForecastResponse } from "../../contract/forecast.ts";
import { Millis } from "./common.ts";
import type { Same } from "../../same.ts";

const OutlookSchema = z.union([
  z.strictObject({ kind: z.literal("empty") }),
  z.strictObject({ kind: z.literal("drains"), inMs: z.number() }),
  z.strictObject({ kind: z.literal("growing"), perMinute: z.number() }),
  z.strictObject({ kind: z.literal("steady") }),
]).openapi({
  description: "Where the backlog heads at the window's rates: `drains` in about `inMs` " +
    "(backlog over its fall per minute in the window, what finished less what arrived, cancels and expiries included), `growing` by `perMinute`, `steady`, or `empty`",
});

/** A task's drain forecast over the last 10 and 60 minutes. */
export const ForecastSchema = z.strictObject({
  task: z.string(),
  readAt: Millis,
  backlog: z.number().int().openapi({
    description: "Jobs yet to finish now that can drain within the forecast's horizon (an " +
      "hour): waiting, active, and delayed and retrying ones due within it",
  }),
  dueLater: z.number().int().openapi({
    description: "Delayed and retrying jobs due after the horizon: no part of the backlog " +
      "until they come within it (then they count as arrivals)",
  }),
  windows: z.array(z.union([
    z.strictObject({
      minutes: z.number().int(),
      from: Millis.openapi({
        description: "When the backlog sample the window starts from was taken: the rates " +
          "are over `from` to `readAt`",
      }),
      backlogThen: z.number().int().openapi({
        description: "The backlog in that sample: the board's leader keeps one a minute " +
          "(`<root>:board:backlog:<minute>`, kept 65 min) while it runs",
      }),
      finished: z.number().int().openapi({
        description: "Jobs completed or failed since (taskora's per-minute counters from the " +
          "sample's minute, less what that minute had counted when the sample was taken)",
      }),
      arrived: z.number().int().openapi({
        description: "Jobs dispatched since, derived: taskora counts no dispatches, so " +
          "`finished + backlog - backlogThen` (never below 0). Jobs cancelled or expired " +
          "leave the backlog uncounted, so it errs low by them",
      }),
      completionRate: z.number().openapi({ description: "`finished` per minute" }),
      arrivalRate: z.number().openapi({ description: "`arrived` per minute" }),
      outlook: OutlookSchema,
    }),
    z.strictObject({
      minutes: z.number().int(),
      missing: z.string().openapi({ description: "Why the window cannot be told" }),
    }),
  ])),
}).openapi("Forecast");
true satisfies Same<z.output<typeof ForecastSchema>, ForecastResponse>;
