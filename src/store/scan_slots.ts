/**
 * The scan slots' part of the {@link BoardStore}: searches and filter counts
 * counted for every board on the store (see `scan_slot_rules.ts` for
 * the rules).
 *
 * @module
 */

import type { ScanSlotAnswer, ScanSlotClaim } from "./scan_slot_rules.ts";

/** Scan slots counted for every board on the store. */
export interface ScanSlotStore {
  /**
   * Takes a slot unless the rules refuse it: null when taken, else why not.
   * The slot expires `claim.ttlMs` after it was taken or last renewed.
   */
  takeScanSlot(claim: ScanSlotClaim): Promise<ScanSlotAnswer>;
  /** Moves a held slot's expiry to `claim.ttlMs` from now (a slot already expired stays gone). */
  renewScanSlot(claim: ScanSlotClaim): Promise<void>;
  /** Gives a slot back. */
  releaseScanSlot(claim: ScanSlotClaim): Promise<void>;
}
