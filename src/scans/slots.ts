/**
 * A cap on the scans run at once over one store: a job search, and the
 * count of a bulk action on a state (a filter's matches, or the delayed set
 * for delayed and retrying jobs), each walk a state slice by slice, so each
 * holds one slot while it runs. A scan past the cap is refused with
 * `INVALID_STATE` rather than queued, so Redis never serves more than `max`
 * of them, whatever the clients do and however many board replicas run.
 *
 * The slots are counted in the board's `BoardStore` (`takeScanSlot`), for
 * every board on it: one user holds at most half of them, and users who may
 * change nothing hold at most all but one together, so a user allowed a
 * mutation can always get one, whatever readers hold, on any replica.
 * Without a login nobody is named, and only the cap holds. A slot expires
 * unless renewed: a board renews its scans' slots every third of `ttlMs`
 * while they run, so a dead process's slots come back.
 *
 * @module
 */

import { BoardError } from "../errors.ts";
import { type ScanSlotClaim, type ScanSlotRefusal, userShare } from "../store/scan_slot_rules.ts";
import type { ScanSlotStore } from "../store/scan_slots.ts";
import type { Timers } from "../timers.ts";

/** Scans run at once over one store, by default. */
export const MAX_SCANS = 4;

/** How long a slot lasts unless its board renews it, ms, by default. */
export const SCAN_SLOT_TTL_MS = 30_000;

/** Who takes a slot: the user's name (null when no login names anyone), and whether it may change anything. */
export interface ScanHolder {
  /** The user's name, or null without a login. */
  user: string | null;
  /** Whether the user is allowed any mutation. */
  mutator: boolean;
}

/** A holder without a login: nobody named, as if allowed everything. */
const NOBODY: ScanHolder = { user: null, mutator: true };

/** Options of {@link ScanSlots}. */
export interface ScanSlotsOptions {
  /** Scans at once over the store (default {@link MAX_SCANS}). */
  max?: number;
  /** How long a slot lasts unless renewed, ms (default {@link SCAN_SLOT_TTL_MS}). */
  ttlMs?: number;
  /** The clock and timers renewals run on (tests pass fake ones). */
  timers: Timers;
}

/** The refusal of a slot, in words. */
function refused(refusal: ScanSlotRefusal, claim: ScanSlotClaim): BoardError {
  const { max } = claim;
  switch (refusal.reason) {
    case "full":
      return new BoardError(
        "INVALID_STATE",
        `${refusal.taken} searches or filter counts are running (at most ${max} at once, over ` +
          "every board on this store): wait for one to end, or stop it",
      );
    case "user":
      return new BoardError(
        "INVALID_STATE",
        `${claim.user} holds ${refusal.held} of the ${max} search and filter-count slots (at most ` +
          `${
            userShare(max)
          } each, over every board on this store): wait for one to end, or stop it`,
      );
    case "readers":
      return new BoardError(
        "INVALID_STATE",
        `${refusal.readers} searches or filter counts of read-only users are running: the last ` +
          "slot is kept for a user who may act; wait for one to end",
      );
  }
}

/** The scan slots as one board takes them. */
export class ScanSlots {
  readonly #store: ScanSlotStore;
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #timers: Timers;

  /** Slots counted in `store`. */
  constructor(store: ScanSlotStore, options: ScanSlotsOptions) {
    this.#store = store;
    this.#max = options.max ?? MAX_SCANS;
    this.#ttlMs = options.ttlMs ?? SCAN_SLOT_TTL_MS;
    this.#timers = options.timers;
  }

  /**
   * Takes a slot, renewed until released, and returns its release
   * (idempotent); `INVALID_STATE` saying why when the rules refuse it, and
   * the store's own error (503 `STORE_UNAVAILABLE`) when it cannot be asked.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ScanSlots } from "./slots.ts";
   * import { createMemoryBoardStore } from "../store/memory/mod.ts";
   * import { systemTimers } from "../timers.ts";
   * const slots = new ScanSlots(createMemoryBoardStore(), { max: 1, timers: systemTimers });
   * const release = await slots.take();
   * try {
   *   // walk the slices; meanwhile the one slot is taken
   *   await assert.rejects(slots.take(), { code: "INVALID_STATE" });
   * } finally {
   *   release();
   * }
   * (await slots.take())(); // free again
   * ```
   */
  async take(holder: ScanHolder = NOBODY): Promise<() => void> {
    const claim: ScanSlotClaim = {
      id: crypto.randomUUID(),
      user: holder.user,
      mutator: holder.mutator,
      max: this.#max,
      ttlMs: this.#ttlMs,
    };
    const refusal = await this.#store.takeScanSlot(claim);
    if (refusal !== null) throw refused(refusal, claim);
    const timers = this.#timers;
    // A renewal that fails (the store away) is not retried: the next one, or the expiry, follows.
    const renewal = timers.setInterval(
      () => this.#store.renewScanSlot(claim).catch(() => {}),
      this.#ttlMs / 3,
    );
    let released = false;
    return () => {
      if (released) return;
      released = true;
      timers.clearInterval(renewal);
      this.#store.releaseScanSlot(claim).catch((error) =>
        console.error("queue-board: cannot give a scan slot back (it expires by itself)", error)
      );
    };
  }

  /** Runs `work` holding a slot; `INVALID_STATE`, without running it, when the slot is refused. */
  async hold<T>(work: () => Promise<T>, holder: ScanHolder = NOBODY): Promise<T> {
    const release = await this.take(holder);
    try {
      return await work();
    } finally {
      release();
    }
  }
}
