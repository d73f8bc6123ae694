/**
 * The lease renewals of a board's store still waiting for Redis's answer: a
 * test that moves a fake clock in steps waits for none to be left before
 * its next step, so the leader holds its lease as it would with Redis
 * answering within a second of a real clock.
 *
 * @module
 */

import type { LeaseStore } from "../../src/store/leases.ts";

/** Wraps `store`'s `holdLease`; returns how many of its calls are in flight now. */
export function renewalsInFlight(store: Pick<LeaseStore, "holdLease">): () => number {
  let inFlight = 0;
  const hold = store.holdLease.bind(store);
  store.holdLease = async (...args) => {
    inFlight++;
    try {
      return await hold(...args);
    } finally {
      inFlight--;
    }
  };
  return () => inFlight;
}
