/**
 * Runs a test run's parts (the type check, each test group) at the same
 * time, and stops the rest when one whose failure fails the whole run ends
 * failed: after a type error the tests' verdict no longer matters, and
 * minutes of two shared cores go to the runs still going.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runAtOnce } from "./run_at_once.ts";
 *
 * const ran = (success: boolean) => () => Promise.resolve({ success, output: "", timedOut: false });
 * const failed = await runAtOnce({ check: ran(true), fast: ran(false) }, () => {});
 * assert.deepEqual(failed, ["fast"]);
 * ```
 *
 * @module
 */

import type { BoundedRun } from "./bounded_command.ts";

/** One part of the run; `stop` aborts when the run is to end early (it then ends failed). */
export type Part = (stop: AbortSignal) => Promise<BoundedRun>;

/**
 * Starts every part of `parts` at once, hands each one's result to `report`
 * as it ends, with its wall time in seconds, and returns the names of those
 * that failed, in the order they ended. When a part named in `stopsTheRest`
 * fails, the others are told to stop.
 */
export async function runAtOnce<Name extends string>(
  parts: Record<Name, Part>,
  report: (name: Name, run: BoundedRun, seconds: number) => void,
  stopsTheRest: readonly string[] = ["check"],
): Promise<Name[]> {
  const stop = new AbortController();
  const failed: Name[] = [];
  const entries = Object.entries(parts) as [Name, Part][];
  await Promise.all(
    entries.map(async ([name, part]) => {
      const started = performance.now();
      const run = await part(stop.signal);
      report(name, run, Math.round((performance.now() - started) / 1000));
      if (run.success) return;
      failed.push(name);
      if (stopsTheRest.includes(name)) stop.abort();
    }),
  );
  return failed;
}
