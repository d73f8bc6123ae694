/**
 * Trace links with a real taskora App on Redis and a real OpenTelemetry
 * SDK: a job dispatched through `withTraceparent()` inside a span has, on
 * its page, a trace link with that span's trace id and a logs link over its
 * attempt; with the traceparent's path redacted, or for a user without
 * `payload.read`, it has none.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import type { BoardOptions } from "../../mod.ts";
import { dispatchInSpan, setUpOpenTelemetry } from "../helpers/open_telemetry.ts";
import { taskOf, waitForState, withApp } from "./harness.ts";

const tracing = {
  traceUrl: "https://tempo.example/trace/{traceId}",
  logsUrl: "https://grafana.example/explore?from={from}&to={to}&job={jobId}",
};

let runs = 0;
/** `mail`: its first run of each test fails, so a job has a failed attempt before it completes. */
const mail = (app: any) => {
  runs = 0;
  app.task("mail", {
    retry: { attempts: 2, backoff: "fixed", delay: 1 },
    handler: (data: { to: string }) => {
      if (++runs === 1) throw new Error("first try fails");
      return data.to;
    },
  });
};

/** A `mail` job dispatched in a span and completed, as a board with `board` options answers it. */
async function tracedJob(
  board: BoardOptions,
  check: (job: any, dispatched: { id: string; traceId: string }, attempts: any) => void,
): Promise<void> {
  const tearDown = setUpOpenTelemetry();
  try {
    await withApp("redis", mail, async (world) => {
      const dispatched = await dispatchInSpan(taskOf(world.app, "mail"), { to: "ada" });
      const job = await waitForState(world, dispatched.id, "completed");
      const attempts = await world.get(`/jobs/${dispatched.id}/attempts`);
      assert.equal(attempts.status, 200);
      check(job, dispatched, attempts.body.attempts);
    }, { board });
  } finally {
    tearDown();
  }
}

Deno.test("a job dispatched through withTraceparent() in a span links to that span's trace", async () => {
  await tracedJob({ tracing }, (job, { id, traceId }, attempts) => {
    assert.match(traceId, /^[0-9a-f]{32}$/);
    // The failed first attempt's window: from when the job could run to when it failed.
    assert.equal(attempts.length, 1);
    const start = job.timestamps.runAt ?? job.timestamps.created;
    assert.equal(
      attempts[0].logs,
      `https://grafana.example/explore?from=${start}&to=${attempts[0].at}&job=${id}`,
    );
    assert.equal(job.links.trace, `https://tempo.example/trace/${traceId}`);
    assert.equal(
      job.links.logs,
      `https://grafana.example/explore?from=${job.timestamps.processed}&to=${job.timestamps.finished}&job=${id}`,
    );
    assert.match(job.data._trace.traceparent, new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });
});

Deno.test("a redacted traceparent path gives no trace link", async () => {
  await tracedJob({ tracing, redact: ["_trace"] }, (job) => {
    assert.equal(job.data._trace, "[REDACTED]");
    assert.equal(job.links.trace, null);
    assert.match(job.links.logs, /^https:\/\/grafana\.example\/explore\?from=\d+&to=\d+&job=/);
  });
});

Deno.test("a user without payload.read gets no links: the trace id is job data", async () => {
  const viewer = { name: "vic", role: "viewer" };
  await tracedJob({
    tracing,
    auth: () => viewer,
    can: (_user, action) => action !== "payload.read",
  }, (job, _dispatched, attempts) => {
    assert.equal(job.data, null);
    assert.deepEqual(job.links, { trace: null, logs: null });
    assert.deepEqual(attempts.map((a: { logs: unknown }) => a.logs), [null]);
  });
});
