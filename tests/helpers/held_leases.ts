/**
 * A store's leases whose answers wait for the test: each take, renewal or look
 * reaches Redis at once, but its answer is handed over only when the test
 * awaits {@link HeldLeases.answered}, as real time waits for Redis before
 * it moves on. A test that moves a fake clock past a take still in flight
 * (on a loaded machine, Redis answers later than the one macrotask turn a
 * fake tick lets pass between two timers) then fails every run, not one run
 * in many; see "Tests do not wait out the board's own timers" in
 * `docs/development.md`.
 *
 * @module
 */

import type { LeaseHold } from "../../src/leadership.ts";
import type { LeaseStore } from "../../src/store/leases.ts";
import { settle } from "./fake_timers.ts";

/** The takes and renewals of a store's leases, held until the test lets them be answered. */
export interface HeldLeases {
  /**
   * Hands over the answer of every take or renewal asked so far and settles
   * once what the asker does with it is done (its next turn set, its lease
   * counted): a test awaits it each time before it moves the clock on.
   */
  answered(): Promise<void>;
}

/**
 * Holds the answers of `store`'s leases (see {@link HeldLeases}): for a source
 * that builds its own `Leadership` on its store, as the Redis source does its
 * background lease. Await {@link HeldLeases.answered} before closing the
 * source too: closing waits for the take under way.
 */
export function holdLeaseAnswers(
  store: Pick<LeaseStore, "holdLease" | "leaseRemaining">,
): HeldLeases {
  const hold = store.holdLease.bind(store);
  const remaining = store.leaseRemaining.bind(store);
  let gate = Promise.withResolvers<void>();
  const inFlight = new Set<Promise<LeaseHold | number>>();
  /** `answer`, let through by the next answered(), whenever Redis answers. */
  const held = <T extends LeaseHold | number>(answer: Promise<T>): Promise<T> => {
    const released = gate.promise;
    const late = answer.finally(() => released);
    inFlight.add(late);
    late.finally(() => inFlight.delete(late)).catch(() => {});
    return late;
  };
  store.holdLease = (name, holder, ttlMs) => held(hold(name, holder, ttlMs));
  store.leaseRemaining = (name) => held(remaining(name));
  return {
    async answered() {
      while (inFlight.size > 0) {
        const open = gate;
        gate = Promise.withResolvers();
        open.resolve();
        await Promise.allSettled(inFlight);
      }
      // The asker's continuation ran before ours; one turn more for what it started then.
      await settle();
    },
  };
}
