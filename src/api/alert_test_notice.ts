/**
 * `POST /alerts/test` (`alerts.update`): sends a test notice to one of the
 * configured sinks through its real delivery (signed, with the sink's
 * timeout and retries) and answers what became of it once it has: a sink
 * that fails every attempt keeps the request for its retries' backoff. The
 * request's end ends the delivery. One test notice per sink is under way at
 * a time (another is 409 `CONFLICT`). The notice is not kept in the history:
 * it is about no rule.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { deliverNotice } from "../alerts/delivery.ts";
import { boardUrlOf, testNotice } from "../alerts/notice.ts";
import { BoardError, invalidParam } from "../errors.ts";
import { epochClock } from "../timers.ts";
import { alertsConfigOf } from "../alerts/settings.ts";
import { jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TestNoticeSchema } from "./schema/alerts.ts";

const sendTest = apiRoute({
  method: "post",
  path: "/alerts/test",
  audit: { action: "alerts.update", target: "test" },
  tags: ["alerts"],
  summary: "Send a test notice to a sink (signed and retried as any notice) and say how it went",
  request: {
    body: jsonBody(
      z.strictObject({ sink: z.string().max(100).openapi({ description: "A sink's name" }) }),
      { required: true },
    ),
  },
  ok: TestNoticeSchema,
  errors: ["CONFLICT"],
});

/** `POST /alerts/test`. */
export function alertTestRoutes({ options, timers }: ApiDeps) {
  // The sinks a test notice is being delivered to: one at a time each, so requests that wait out
  // a sink's retries cannot pile up posts to it (the board's in-flight bound, for test notices).
  const underWay = new Set<string>();
  return apiRouter().openapi(sendTest, async (c) => {
    const config = alertsConfigOf(options);
    const { sink: name } = c.req.valid("json");
    const sink = config.sinks.find((sink) => sink.name === name);
    if (!sink) {
      const names = config.sinks.map((sink) => sink.name).join(", ") || "none";
      throw invalidParam("sink", `must be the name of a configured sink (${names})`);
    }
    if (underWay.has(name)) {
      throw new BoardError("CONFLICT", `A test notice to "${name}" is under way: wait for it`);
    }
    const clock = epochClock(timers);
    const notice = testNotice(clock(), boardUrlOf(config, options.basePath));
    underWay.add(name);
    try {
      const { outcome, attempts, error } = await deliverNotice(sink, notice, {
        timers,
        clock,
        signal: c.req.raw.signal,
      });
      return c.json({ sink: name, outcome, attempts, ...error !== null && { reason: error } }, 200);
    } finally {
      underWay.delete(name);
    }
  });
}
