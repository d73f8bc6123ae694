/**
 * `GET /throughput`: completed and failed jobs per minute over the last 24 h.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, textParam } from "./params.ts";
import { ThroughputSchema } from "./schema/board.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const getThroughput = apiRoute({
  method: "get",
  path: "/throughput",
  tags: ["board"],
  summary: "Completed and failed jobs per bucket (one minute, 24 h by default)",
  request: {
    query: z.object({
      task: textParam(256, "One task's (absent: every task's)"),
      bucket: integerParam({ fallback: MINUTE, max: DAY, description: "Bucket size, ms" })
        .refine((ms) => ms >= MINUTE && ms % MINUTE === 0, {
          error: (issue) => `must be a whole number of minutes in ms (got ${issue.input})`,
        }),
      count: integerParam({ min: 1, max: 10_080, description: "Buckets (default: 24 h of them)" }),
    }),
  },
  ok: ThroughputSchema,
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"],
});

/** Routes under `/throughput`. */
export function throughputRoutes({ source }: ApiDeps) {
  return apiRouter().openapi(getThroughput, async (c) => {
    const { task, bucket: bucketMs, count = DAY / bucketMs } = c.req.valid("query");
    return c.json(await source.getThroughput({ task, bucketMs, count }), 200);
  });
}
