/**
 * What `deno test --parallel` prints (NO_COLOR) for a run in which one test
 * failed: the lines of the tests that passed, then its report. The runner's
 * tests read it as the failure summary does.
 *
 * @module
 */

/** The failed test: its name, where it is, and its error's lines. */
export interface FailedTest {
  name: string;
  at: string;
  error: string[];
}

/** The output of a `deno test` run where `failed` failed after `passing` tests passed. */
export function denoTestOutput(failed: FailedTest, passing: number): string {
  return [
    ...Array.from({ length: passing }, (_, i) => `./group_00_test.ts => test ${i} ... ok (1ms)`),
    `./group_01_test.ts => ${failed.name} ... FAILED (12ms)`,
    "",
    " ERRORS ",
    "",
    `${failed.name} => ${failed.at}`,
    ...failed.error,
    "",
    " FAILURES ",
    "",
    `${failed.name} => ${failed.at}`,
    "",
    `FAILED | ${passing} passed | 1 failed (3m12s)`,
    "",
    "error: Test failed",
  ].join("\n");
}
