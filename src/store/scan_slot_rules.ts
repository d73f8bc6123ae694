/**
 * The scan slots every board on one store shares: who may start a scan (a
 * job search, a bulk action's count of a state) while others run. The
 * rules, one place for every store:
 * - at most `max` scans run at once over the store;
 * - one named user holds at most half of them;
 * - users who may change nothing (readers) hold at most all but one
 *   together, so a user allowed any mutation can always get one.
 *
 * Each holder has an expiry, renewed while its scan runs, so the slots of a
 * process that died come back by themselves. {@link LocalScanSlots} keeps
 * them in process (the memory store); the
 * Redis store keeps them under the board's root (`redis/scan_slots.ts`),
 * with the same rules in one script.
 *
 * @module
 */

/** A scan that asks for a slot, and how long its slot lasts unless renewed. */
export interface ScanSlotClaim {
  /** The holder's id, unique per scan (a random UUID). */
  id: string;
  /** The user's name, or null when no login names anyone (then only the cap holds). */
  user: string | null;
  /** Whether the user is allowed any mutation. */
  mutator: boolean;
  /** Scans at once over the store. */
  max: number;
  /** How long the slot lasts unless renewed, ms. */
  ttlMs: number;
}

/** Why a slot was refused: every slot taken, the user's half, or the readers' share. */
export type ScanSlotRefusal =
  | { reason: "full"; taken: number }
  | { reason: "user"; held: number }
  | { reason: "readers"; readers: number };

/** What asking for a slot answered: null when it was taken, else why not. */
export type ScanSlotAnswer = ScanSlotRefusal | null;

/** Who holds a slot now. */
export type ScanSlotHolder = Pick<ScanSlotClaim, "user" | "mutator">;

/** The most slots one named user holds at once. */
export function userShare(max: number): number {
  return Math.max(1, Math.floor(max / 2));
}

/**
 * Why `claim` may not take a slot while `holders` hold theirs, or null when
 * it may.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanSlotRefusal } from "./scan_slot_rules.ts";
 * const ann = { user: "ann", mutator: false };
 * const claim = { id: "s-3", ...ann, max: 4, ttlMs: 30_000 };
 * assert.deepEqual(scanSlotRefusal([ann, ann], claim), { reason: "user", held: 2 });
 * ```
 */
export function scanSlotRefusal(
  holders: readonly ScanSlotHolder[],
  claim: ScanSlotClaim,
): ScanSlotRefusal | null {
  if (holders.length >= claim.max) return { reason: "full", taken: holders.length };
  if (claim.user === null) return null;
  const held = holders.filter((holder) => holder.user === claim.user).length;
  if (held >= userShare(claim.max)) return { reason: "user", held };
  const readers = holders.filter((holder) => holder.user !== null && !holder.mutator).length;
  if (!claim.mutator && readers >= claim.max - 1) return { reason: "readers", readers };
  return null;
}

/**
 * Scan slots in process, on a clock: what the memory source keeps for the
 * boards on it. It holds at most `max` live holders (expired ones are
 * dropped on each take).
 */
export class LocalScanSlots {
  readonly #now: () => number;
  /** Live holders by id, with when each expires (ms). */
  readonly #holders = new Map<string, { holder: ScanSlotHolder; expiresAt: number }>();

  /** Slots whose expiries are read on `now` (ms). */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Takes a slot for `claim` unless the rules refuse it; see {@link scanSlotRefusal}. */
  takeScanSlot(claim: ScanSlotClaim): Promise<ScanSlotAnswer> {
    const now = this.#now();
    for (const [id, { expiresAt }] of this.#holders) {
      if (expiresAt <= now) this.#holders.delete(id);
    }
    const refusal = scanSlotRefusal([...this.#holders.values()].map(({ holder }) => holder), claim);
    if (refusal === null) {
      const { user, mutator } = claim;
      this.#holders.set(claim.id, { holder: { user, mutator }, expiresAt: now + claim.ttlMs });
    }
    return Promise.resolve(refusal);
  }

  /** Moves a held slot's expiry to `ttlMs` from now; a slot that expired meanwhile stays gone. */
  renewScanSlot(claim: ScanSlotClaim): Promise<void> {
    const held = this.#holders.get(claim.id);
    if (held) held.expiresAt = this.#now() + claim.ttlMs;
    return Promise.resolve();
  }

  /** Gives a slot back. */
  releaseScanSlot(claim: ScanSlotClaim): Promise<void> {
    this.#holders.delete(claim.id);
    return Promise.resolve();
  }
}
