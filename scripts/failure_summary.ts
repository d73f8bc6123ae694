/**
 * What a failed part of the test run says at the end of the run: CI keeps
 * only the tail of its log, and each part's whole output is printed when the
 * part ends, so a group that failed early was printed minutes before the
 * run's last line (a CI run ended on `failed: test:e2e` with nothing left in
 * its tail to say which test). The summary is deno test's own report (its
 * errors, the failed tests' names and the count), or, for a part stopped at
 * its limit, the tests deno test said were pending; bounded, so a part that
 * fails everything cannot bury the others.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failureSummary } from "./failure_summary.ts";
 *
 * const output = "a ... ok (1ms)\nb ... FAILED (2ms)\n\n FAILURES \n\nb => ./b_test.ts:1:6\n\nFAILED | 1 passed | 1 failed";
 * assert.deepEqual(failureSummary(output), [" FAILURES ", "", "b => ./b_test.ts:1:6", "", "FAILED | 1 passed | 1 failed"]);
 * ```
 *
 * @module
 */

/** At most this many lines per failed part. */
export const SUMMARY_LINES = 150;

/** Where deno test's report starts: its errors, its failed tests, or (interrupted) its pending tests. */
const REPORT_START = /^ ERRORS $|^ FAILURES $|The following tests were pending:$/;
const FAILURES = " FAILURES ";
/** The count that closes deno test's report. */
const COUNT = /^(?:FAILED|ok) \| /;
/** A test deno test reported failed as it ended. */
const FAILED_TEST = / \.\.\. FAILED\b/;

/** `lines`, or their first `count` and a line saying how many `what` were left out. */
function head(lines: readonly string[], count: number, what: string): string[] {
  if (lines.length <= count) return [...lines];
  const kept = Math.max(count - 1, 0);
  return [...lines.slice(0, kept), `… ${lines.length - kept} ${what} left out`];
}

/** The last `count` of `lines`, after a line saying how many came before them. */
function tail(lines: readonly string[], count: number): string[] {
  if (lines.length <= count) return [...lines];
  const kept = count - 1;
  return [`… ${lines.length - kept} lines above`, ...lines.slice(-kept)];
}

/**
 * The summary of a failed part's `output`, at most `maxLines` lines: deno
 * test's report from its first heading to its end (the errors cut first,
 * then the list of failed tests, never the closing count), with the tests it
 * reported failed on the way when the report has no list of them (a part
 * stopped at its limit); an output without such a report (the type check) is
 * its last lines.
 */
export function failureSummary(output: string, maxLines = SUMMARY_LINES): string[] {
  const lines = output.trimEnd().split("\n");
  const start = lines.findIndex((line) => REPORT_START.test(line));
  if (start < 0) return tail(lines, maxLines);
  const report = lines.slice(start);
  const countAt = report.findLastIndex((line) => COUNT.test(line));
  const closing = countAt < 0 ? [] : report.slice(countAt);
  const body = countAt < 0 ? report : report.slice(0, countAt);
  const failuresAt = body.indexOf(FAILURES);
  const errors = failuresAt < 0 ? body : body.slice(0, failuresAt);
  const names = failuresAt < 0 ? [] : body.slice(failuresAt);

  let remaining = maxLines - closing.length;
  const failedOnTheWay = failuresAt < 0
    ? head(
      lines.slice(0, start).filter((line) => FAILED_TEST.test(line)),
      Math.floor(remaining / 4),
      "more failed tests",
    )
    : [];
  remaining -= failedOnTheWay.length;
  const namesKept = head(
    names,
    Math.max(Math.floor(remaining / 2), remaining - errors.length),
    "more failed tests",
  );
  remaining -= namesKept.length;
  return [
    ...failedOnTheWay,
    ...head(errors, remaining, "lines of errors"),
    ...namesKept,
    ...closing,
  ];
}
