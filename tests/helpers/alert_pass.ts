/**
 * One alert evaluation pass on fake timers, waited out. The evaluator skips
 * a tick that comes while its previous pass still runs, so a test that ticks
 * on regardless runs the clock ahead of the passes (on a loaded machine a
 * one-minute silence ended before the pass it should have muted).
 *
 * @module
 */

import type { FakeTimers } from "./fake_timers.ts";
import { waitFor } from "./wait_for.ts";

/**
 * Moves `timers` on by `everyMs` and waits until `evaluatedAt` (the `asOf`
 * of `GET /alerts`) moves: the pass that tick started has written its states.
 *
 * @example
 * ```ts ignore
 * const evaluatedAt = async () => (await call("GET", "/alerts")).body.asOf;
 * await alertPass(timers, 10_000, evaluatedAt);
 * ```
 */
export async function alertPass(
  timers: FakeTimers,
  everyMs: number,
  evaluatedAt: () => Promise<number | null>,
): Promise<void> {
  const before = await evaluatedAt();
  await timers.tick(everyMs);
  await waitFor(async () => await evaluatedAt() !== before, { what: "the evaluation pass" });
}
