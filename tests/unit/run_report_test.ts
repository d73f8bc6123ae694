import assert from "node:assert/strict";
import type { BoundedRun } from "../../scripts/bounded_command.ts";
import { runAndReport } from "../../scripts/run_report.ts";
import { SUMMARY_LINES } from "../../scripts/failure_summary.ts";
import { denoTestOutput } from "../helpers/deno_test_output.ts";

/** A part that ends with `run` when the test says. */
function heldPart() {
  const { promise, resolve } = Promise.withResolvers<BoundedRun>();
  return { part: () => promise, end: resolve };
}

Deno.test("runAndReport() ends with the failed part's error and test, after a part that ended later", async () => {
  const e2e = heldPart();
  const redis = heldPart();
  const printed: string[] = [];
  const run = runAndReport(
    { e2e: e2e.part, redis: redis.part },
    (name) => `test:${name}`,
    (text) => printed.push(...text.split("\n")),
  );
  e2e.end({
    success: false,
    output: denoTestOutput({
      name: "the alert fires",
      at: "./tests/e2e/alerts_test.ts:88:6",
      error: ["error: TimeoutError: locator.click: Timeout 5000ms exceeded."],
    }, 1_000),
    timedOut: false,
  });
  await Promise.resolve();
  redis.end({
    success: true,
    output: Array.from({ length: 2_000 }, (_, i) => `redis test ${i} ... ok`).join("\n"),
    timedOut: false,
  });
  assert.deepEqual(await run, ["e2e"]);

  // What CI keeps of the log: its tail, shorter than the redis group's output printed after e2e's.
  const tail = printed.slice(-(SUMMARY_LINES + 5)).join("\n");
  assert.match(tail, /test:e2e/);
  assert.match(tail, /TimeoutError: locator\.click/);
  assert.match(tail, /FAILURES \n\nthe alert fires => \.\/tests\/e2e\/alerts_test\.ts:88:6/);
  assert.equal(printed.at(-1), "failed: test:e2e");
  // Each part's whole output is still printed, when it ends.
  assert.ok(printed.includes("./group_00_test.ts => test 0 ... ok (1ms)"));
  assert.ok(printed.indexOf("redis test 1999 ... ok") < printed.lastIndexOf(" ERRORS "));
});

Deno.test("runAndReport() of parts that all passed prints no summary", async () => {
  const printed: string[] = [];
  const ok = () => Promise.resolve({ success: true, output: "ok | 1 passed", timedOut: false });
  assert.deepEqual(
    await runAndReport({ fast: ok }, (name) => name, (text) => printed.push(text)),
    [],
  );
  assert.equal(printed.filter((text) => /failed/.test(text)).length, 0);
});
