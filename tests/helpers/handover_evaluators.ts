/**
 * Two alert evaluators on one real Redis, "board a" leading until the test
 * hands the lease to "board b": how the tests show what a new leader goes
 * on from.
 *
 * @module
 */

import { startAlertEvaluator } from "../../src/alerts/runner.ts";
import type { AlertsConfig } from "../../src/contract/alerts.ts";
import { Leadership } from "../../src/leadership.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { FakeTimers } from "./fake_timers.ts";
import { namedLease } from "./named_lease.ts";

/** The wall clock the evaluators read: a fixed epoch plus the fake timers' time. */
export const HANDOVER_EPOCH = 1_800_000_000_000;

/**
 * Starts both evaluators of `config` on `url`; `handTo("board b")` moves the
 * lead at the next renewal, `close` ends both.
 *
 * @example
 * ```ts ignore
 * const { boards: [a, b], handTo, close } = startHandoverEvaluators(redis.url, config, timers);
 * ```
 */
export function startHandoverEvaluators(url: string, config: AlertsConfig, timers: FakeTimers) {
  const { lease, handTo } = namedLease("board a");
  const boards = ["board a", "board b"].map((name) => {
    const source = createRedisSource({ url });
    const leadership = new Leadership(lease, { timers, holder: name });
    const evaluator = startAlertEvaluator({
      source,
      store: source.boardStore,
      config,
      leadership,
      timers,
      clock: () => HANDOVER_EPOCH + timers.now(),
    });
    return { source, leadership, evaluator };
  });
  return {
    boards,
    handTo,
    close: () =>
      Promise.all(boards.map(async ({ evaluator, leadership, source }) => {
        await evaluator.close();
        await Promise.all([leadership.close(), source.close()]);
      })),
  };
}
