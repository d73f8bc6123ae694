/**
 * A board lease held by whichever board the test names: the way a test
 * hands the lead from one board to another at the step it chooses.
 *
 * @module
 */

import type { Lease } from "../../src/leadership.ts";

/**
 * A lease `first` holds until `handTo` names another holder.
 *
 * @example
 * ```ts
 * import { Leadership } from "../../src/leadership.ts";
 * import { namedLease } from "./named_lease.ts";
 * const { lease, handTo } = namedLease("board a");
 * const b = new Leadership(lease, { holder: "board b" });
 * handTo("board b"); // b leads from its next renewal
 * await b.close();
 * ```
 */
export function namedLease(first: string): { lease: Lease; handTo: (holder: string) => void } {
  let holder = first;
  return {
    lease: {
      // Another's lease shows no end: a follower then tries every third of the period, so the
      // one named leads from its next turn, not when a lease period runs out.
      hold: (who, ttlMs) =>
        Promise.resolve({ held: holder === who, expiresInMs: holder === who ? ttlMs : 0 }),
      remaining: () => Promise.resolve(0),
      release: () => Promise.resolve(),
    },
    handTo: (next) => holder = next,
  };
}
