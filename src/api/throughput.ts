/**
 * `GET /throughput`: completed and failed jobs per minute over the last 24 h.
 *
 * @module
 */

import { Hono } from "hono";
import { invalidParam } from "../errors.ts";
import type { ApiDeps } from "./deps.ts";
import { integerParam } from "./params.ts";

const MINUTE = 60_000;

/** Routes under `/throughput`. */
export function throughputRoutes({ source }: ApiDeps): Hono {
  return new Hono().get("/throughput", async (c) => {
    const task = c.req.query("task") || undefined;
    const bucketMs = integerParam("bucket", c.req.query("bucket"), MINUTE, 24 * 60 * MINUTE);
    if (bucketMs < MINUTE || bucketMs % MINUTE !== 0) {
      throw invalidParam("bucket", `must be a whole number of minutes in ms (got ${bucketMs})`);
    }
    const count = integerParam(
      "count",
      c.req.query("count"),
      (24 * 60 * MINUTE) / bucketMs,
      10_080,
    );
    if (count === 0) throw invalidParam("count", "must be at least 1 (got 0)");
    return c.json(await source.getThroughput({ task, bucketMs, count }));
  });
}
