/**
 * `GET /throughput`: completed and failed jobs per minute over the last 24 h,
 * from the day the leader keeps when it is fresh (`samplers/throughput_read.ts`),
 * else from taskora's counters; `X-As-Of` says when the counters were read.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { AS_OF_HEADER } from "../contract/throughput.ts";
import { KeptThroughputReader } from "../samplers/throughput_read.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, textParam } from "./schema/params.ts";
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
  okHeaders: z.object({
    [AS_OF_HEADER]: z.string().openapi({
      description: "When the counters were read (ms since the epoch): the last bucket is " +
        "that minute, counting still; up to about two minutes ago when the leader's kept day " +
        "answered",
    }),
  }),
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"],
});

/** Routes under `/throughput`. */
export function throughputRoutes({ source, store, clock, leadership }: ApiDeps) {
  // Made at the first request: building the routes reads nothing of their deps.
  let kept: KeptThroughputReader | null | undefined;
  return apiRouter().openapi(getThroughput, async (c) => {
    const { task, bucket: bucketMs, count = DAY / bucketMs } = c.req.valid("query");
    kept ??= store.keptThroughput ? new KeptThroughputReader(store.keptThroughput, clock) : null;
    // Asked: compete to lead, so that some board keeps the day (a read-only board may be alone).
    if (kept) leadership.leads();
    const answer = await kept?.read({ task, bucketMs, count });
    if (answer) {
      c.header(AS_OF_HEADER, String(answer.asOf));
      return c.json(answer.buckets, 200);
    }
    const asOf = clock();
    const buckets = await source.getThroughput({ task, bucketMs, count });
    c.header(AS_OF_HEADER, String(asOf));
    return c.json(buckets, 200);
  });
}
