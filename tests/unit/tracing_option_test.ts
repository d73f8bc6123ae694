import assert from "node:assert/strict";
import { BoardOptionsError, resolveOptions } from "../../src/options.ts";
import { jobLinks } from "../../src/contract/trace_links.ts";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const traceparent = (id: string) => `00-${id}-00f067aa0ba902b7-01`;

function refuses(tracing: unknown, field: string): void {
  assert.throws(
    () => resolveOptions({ tracing: tracing as never }),
    (error: unknown) =>
      error instanceof BoardOptionsError && error.message.includes(`option "${field}" must be`),
    field,
  );
}

Deno.test("the tracing option resolves its templates and splits its path", () => {
  assert.equal(resolveOptions({}).tracing, null);
  assert.deepEqual(
    resolveOptions({
      tracing: { traceUrl: "https://tempo.example/trace/{traceId}", path: "meta.trace" },
    }).tracing,
    { traceUrl: "https://tempo.example/trace/{traceId}", logsUrl: null, path: ["meta", "trace"] },
  );
});

Deno.test("a tracing template that is not an http(s) URL with known placeholders is refused", () => {
  refuses({ traceUrl: "javascript:alert({traceId})" }, "tracing.traceUrl");
  refuses({ traceUrl: "data:text/html,{traceId}" }, "tracing.traceUrl");
  refuses({ traceUrl: "https://tempo.example/trace/" }, "tracing.traceUrl");
  refuses({ traceUrl: "https://tempo.example/{traceid}" }, "tracing.traceUrl");
  refuses({ logsUrl: "{from}" }, "tracing.logsUrl");
  refuses({ logsUrl: "https://g.example/?q={query}" }, "tracing.logsUrl");
  refuses({ path: "a..b" }, "tracing.path");
  refuses({ url: "https://x.example/" }, "tracing.url");
  refuses("https://tempo.example/trace/{traceId}", "tracing");
});

Deno.test("a trace id from job data is taken only from a well-formed traceparent, encoded", () => {
  const config = {
    traceUrl: "https://t.example/{traceId}?job={jobId}",
    logsUrl: null,
    path: ["_trace"],
  };
  const link = (value: unknown) =>
    jobLinks(config, {
      id: "a&b",
      task: "t",
      data: { _trace: value },
      processed: null,
      finished: null,
    })
      .trace;
  assert.equal(
    link({ traceparent: traceparent(TRACE_ID) }),
    `https://t.example/${TRACE_ID}?job=a%26b`,
  );
  assert.equal(link(traceparent(TRACE_ID)), `https://t.example/${TRACE_ID}?job=a%26b`);
  assert.equal(link({ traceparent: traceparent("0".repeat(32)) }), null);
  assert.equal(link({ traceparent: traceparent(TRACE_ID.toUpperCase()) }), null);
  assert.equal(link({ traceparent: `${traceparent(TRACE_ID)}/../../evil` }), null);
  assert.equal(link({ traceparent: "[REDACTED]" }), null);
  assert.equal(link(undefined), null);
});
