/**
 * A cap on the scans a board runs at once: a job search, and the count of
 * a bulk action on a state (a filter's matches, or the delayed set for
 * delayed and retrying jobs), each walk a state slice by slice, so each
 * holds one slot while it runs. A scan past the cap is
 * refused with `INVALID_STATE` rather than queued, so Redis never serves
 * more than `max` of them from one board whatever the clients do. Each
 * board has its own slots.
 *
 * The slots are shared fairly: one user holds at most half of them, and
 * users who may change nothing hold at most all but one together, so a user
 * allowed a mutation can always get one, whatever readers hold. Without a
 * login nobody is named, and only the cap holds.
 *
 * @module
 */

import { BoardError } from "../errors.ts";

/** Scans one board runs at once, by default. */
export const MAX_SCANS = 4;

/** Who takes a slot: the user's name (null when no login names anyone), and whether it may change anything. */
export interface ScanHolder {
  /** The user's name, or null without a login. */
  user: string | null;
  /** Whether the user is allowed any mutation. */
  mutator: boolean;
}

/** A holder without a login: nobody named, as if allowed everything. */
const NOBODY: ScanHolder = { user: null, mutator: true };

/** The slots of one board. */
export class ScanSlots {
  readonly #max: number;
  #taken = 0;
  #readers = 0;
  /** Slots held per named user; a user leaves it when it holds none. */
  readonly #byUser = new Map<string, number>();

  /** `max` scans at once (default {@link MAX_SCANS}). */
  constructor(max: number = MAX_SCANS) {
    this.#max = max;
  }

  /** Scans running now. */
  get taken(): number {
    return this.#taken;
  }

  /**
   * Takes a slot and returns its release (idempotent); `INVALID_STATE` when
   * every slot is taken.
   *
   * @example
   * ```ts
   * import { ScanSlots } from "./scan_slots.ts";
   * const slots = new ScanSlots(1);
   * const release = slots.take();
   * try {
   *   // walk the slices
   * } finally {
   *   release();
   * }
   * ```
   */
  take(holder: ScanHolder = NOBODY): () => void {
    if (this.#taken >= this.#max) {
      throw new BoardError(
        "INVALID_STATE",
        `${this.#taken} searches or filter counts are running on this board (at most ` +
          `${this.#max} at once): wait for one to end, or stop it`,
      );
    }
    const { user, mutator } = holder;
    const held = user === null ? 0 : this.#byUser.get(user) ?? 0;
    if (user !== null && held >= Math.max(1, Math.floor(this.#max / 2))) {
      throw new BoardError(
        "INVALID_STATE",
        `${user} holds ${held} of this board's ${this.#max} search and filter-count slots ` +
          "(at most half each): wait for one to end, or stop it",
      );
    }
    if (user !== null && !mutator && this.#readers >= this.#max - 1) {
      throw new BoardError(
        "INVALID_STATE",
        `${this.#readers} searches or filter counts of read-only users are running on this ` +
          "board: the last slot is kept for a user who may act; wait for one to end",
      );
    }
    this.#taken++;
    const reads = user !== null && !mutator;
    if (reads) this.#readers++;
    if (user !== null) this.#byUser.set(user, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#taken--;
      if (reads) this.#readers--;
      if (user === null) return;
      const left = (this.#byUser.get(user) ?? 1) - 1;
      if (left === 0) this.#byUser.delete(user);
      else this.#byUser.set(user, left);
    };
  }

  /** Runs `work` holding a slot; `INVALID_STATE`, without running it, when every slot is taken. */
  async hold<T>(work: () => Promise<T>, holder: ScanHolder = NOBODY): Promise<T> {
    const release = this.take(holder);
    try {
      return await work();
    } finally {
      release();
    }
  }
}
