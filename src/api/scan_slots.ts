/**
 * A cap on the scans a board runs at once: a job search, and the count of
 * a bulk action on a state (a filter's matches, or the delayed set for
 * delayed and retrying jobs), each walk a state slice by slice, so each
 * holds one slot while it runs. A scan past the cap is
 * refused with `INVALID_STATE` rather than queued, so Redis never serves
 * more than `max` of them from one board whatever the clients do. Each
 * board has its own slots.
 *
 * @module
 */

import { BoardError } from "../errors.ts";

/** Scans one board runs at once, by default. */
export const MAX_SCANS = 4;

/** The slots of one board. */
export class ScanSlots {
  readonly #max: number;
  #taken = 0;

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
  take(): () => void {
    if (this.#taken >= this.#max) {
      throw new BoardError(
        "INVALID_STATE",
        `${this.#taken} searches or filter counts are running on this board (at most ` +
          `${this.#max} at once): wait for one to end, or stop it`,
      );
    }
    this.#taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#taken--;
    };
  }

  /** Runs `work` holding a slot; `INVALID_STATE`, without running it, when every slot is taken. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    const release = this.take();
    try {
      return await work();
    } finally {
      release();
    }
  }
}
