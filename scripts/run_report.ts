/**
 * Runs the test run's parts at once (`scripts/run_at_once.ts`) and prints
 * what they say: each part's whole output as it ends, then, once every part
 * has ended, each failed part's summary (`scripts/failure_summary.ts`) and
 * the failed parts' names, as the run's last lines. CI keeps only a log's
 * tail: a group that failed before another ended had its errors printed
 * minutes before the end, and the tail said only `failed: test:e2e`.
 *
 * @module
 */

import { failureSummary } from "./failure_summary.ts";
import { type Part, runAtOnce } from "./run_at_once.ts";

/**
 * Runs `parts` at once, printing each one's output under its name
 * (`nameOf`) as it ends and the failed ones' summaries after the last, and
 * returns the names of those that failed, in the order they ended.
 */
export async function runAndReport<Name extends string>(
  parts: Record<Name, Part>,
  nameOf: (name: Name) => string,
  print: (text: string) => void = console.log,
): Promise<Name[]> {
  const outputs = new Map<Name, string>();
  const failed = await runAtOnce(parts, (name, { output }, seconds) => {
    outputs.set(name, output);
    print(`\n== ${nameOf(name)} (${seconds} s)\n${output}`);
  });
  if (failed.length === 0) return failed;
  for (const name of failed) {
    const heading = `\n== ${nameOf(name)} failed: its summary (its whole output is above)`;
    print([heading, ...failureSummary(outputs.get(name)!)].join("\n"));
  }
  print(`\nfailed: ${failed.map(nameOf).join(", ")}`);
  return failed;
}
