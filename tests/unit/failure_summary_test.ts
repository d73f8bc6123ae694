import assert from "node:assert/strict";
import { failureSummary, SUMMARY_LINES } from "../../scripts/failure_summary.ts";
import { denoTestOutput } from "../helpers/deno_test_output.ts";

/** deno test's output for a run whose test `name` failed (3 !== 4), after `passing` tests passed. */
function failedRun(name: string, passing: number, errorLines: string[] = []): string {
  return denoTestOutput({
    name,
    at: "./tests/http/jobs_test.ts:40:6",
    error: [
      "error: AssertionError: Expected values to be strictly equal:",
      "",
      "3 !== 4",
      ...errorLines,
      "    at file:///p/tests/http/jobs_test.ts:52:10",
    ],
  }, passing);
}

Deno.test("failureSummary() is deno test's report: the error and the failed test's name, not the passing tests", () => {
  const summary = failureSummary(failedRun("retry keeps the attempt", 2_000)).join("\n");
  assert.match(summary, /^ ERRORS $/m);
  assert.match(summary, /AssertionError[\s\S]*3 !== 4/);
  assert.match(
    summary,
    /FAILURES \n\nretry keeps the attempt => \.\/tests\/http\/jobs_test\.ts:40:6/,
  );
  assert.match(summary, /FAILED \| 2000 passed \| 1 failed/);
  assert.doesNotMatch(summary, /test 1999/);
});

Deno.test("failureSummary() keeps the failed tests' names and the count when the errors are too long", () => {
  const longError = Array.from({ length: 1_000 }, (_, i) => `    at frame ${i}`);
  const output = failedRun("the job moves", 10, longError);
  const summary = failureSummary(output);
  assert.ok(summary.length <= SUMMARY_LINES, `${summary.length} lines`);
  const text = summary.join("\n");
  assert.match(text, /3 !== 4/);
  assert.match(text, /lines of errors left out/);
  assert.match(text, / FAILURES \n\nthe job moves => \.\/tests\/http\/jobs_test\.ts:40:6/);
  assert.match(text, /error: Test failed$/);
});

Deno.test("failureSummary() names a run's many failed tests within its bound", () => {
  const names = Array.from({ length: 400 }, (_, i) => `t${i} => ./tests/a_test.ts:${i}:6`);
  const output = [
    " ERRORS ",
    "",
    "boom",
    "",
    " FAILURES ",
    "",
    ...names,
    "",
    "FAILED | 0 passed | 400 failed",
  ]
    .join("\n");
  const summary = failureSummary(output);
  assert.ok(summary.length <= SUMMARY_LINES, `${summary.length} lines`);
  const text = summary.join("\n");
  assert.match(text, /^t0 => /m);
  assert.match(text, /more failed tests/);
  assert.match(text, /FAILED \| 0 passed \| 400 failed$/);
});

Deno.test("failureSummary() of a part stopped at its limit names the tests deno test said were pending", () => {
  const output = [
    "./e2e_00_test.ts => opens the board ... ok (3s)",
    "./e2e_01_test.ts => a job fails ... FAILED (2s)",
    ...Array.from({ length: 500 }, (_, i) => `noise ${i}`),
    "SIGINT The following tests were pending:",
    "",
    "the alert fires => ./tests/e2e/alerts_test.ts:88:6",
    "",
    "== test:e2e did not finish within 25 min: killed, with every process it started.",
  ].join("\n");
  const text = failureSummary(output).join("\n");
  assert.match(text, /a job fails \.\.\. FAILED/);
  assert.match(text, /pending:\n\nthe alert fires => \.\/tests\/e2e\/alerts_test\.ts:88:6/);
  assert.match(text, /did not finish within 25 min/);
  assert.doesNotMatch(text, /noise/);
});

Deno.test("failureSummary() of an output without deno test's report is its last lines, bounded", () => {
  const errors = Array.from({ length: 1_000 }, (_, i) => `TS2322 [ERROR]: error ${i}`);
  const summary = failureSummary([...errors, "Found 1000 errors."].join("\n"));
  assert.equal(summary.length, SUMMARY_LINES);
  assert.match(summary[0], /^… 852 lines above$/);
  assert.equal(summary.at(-1), "Found 1000 errors.");
});
