/**
 * `GET /throughput`: completed and failed jobs per minute over the last 24 h,
 * from the day the leader keeps when it is fresh (`samplers/throughput_read.ts`),
 * else from taskora's counters; `X-As-Of` says when the counters were read.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { AS_OF_HEADER } from "../contract/throughput.ts";
import { counting, FIRST_PASS_WAIT_MS } from "../feed/live_read.ts";
import { KeptThroughputReader } from "../samplers/throughput_read.ts";
import { settledWithin } from "../timers.ts";
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
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND", "COUNTING"],
});

/**
 * Routes under `/throughput`. The whole day, when no board keeps it yet, is
 * the leader's first pass: on the leader the ask runs it and waits for it
 * (at most one lease period, else 503 `COUNTING`), rather than read every
 * task's counters on the request and again in the pass.
 */
export function throughputRoutes(
  { source, store, clock, leadership, throughput, timers }: ApiDeps,
) {
  // Made at the first request: building the routes reads nothing of their deps.
  let kept: KeptThroughputReader | null | undefined;
  return apiRouter().openapi(getThroughput, async (c) => {
    const { task, bucket: bucketMs, count = DAY / bucketMs } = c.req.valid("query");
    kept ??= store.keptThroughput ? new KeptThroughputReader(store.keptThroughput, clock) : null;
    // Asked: compete to lead, so that some board keeps the day (a read-only board may be alone).
    if (kept) leadership.leads();
    const query = { task, bucketMs, count };
    let answer = await kept?.read(query);
    // One task's day read directly is one script; every task's is what the pass reads.
    if (!answer && kept && throughput && task === undefined) {
      await leadership.turnSettled();
      if (leadership.isLeading) {
        if (!await settledWithin(timers, throughput.pass(), FIRST_PASS_WAIT_MS)) throw counting();
        answer = await kept.read(query);
      }
    }
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
