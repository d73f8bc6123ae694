/**
 * The error shapes (see `errorPattern`) the `newErrorGroup` rule has seen,
 * per task, in a bounded structure: at most `maxEntries`, the least recently
 * seen forgotten first, and a shape not seen for 24 h forgotten anyway, so
 * it is new when it comes back.
 *
 * @module
 */

const HOUR = 3_600_000;

/** A shape unseen for this long is forgotten: the "not seen in the last 24 h". */
export const FORGET_AFTER_MS = 24 * HOUR;

/** A shape counts as new for this long after it first appeared, so its alert can fire and hold. */
export const NEW_FOR_MS = HOUR;

/** The longest part of a shape kept: enough to tell errors apart, a bound on memory. */
const SHAPE_CHARS = 300;

interface Seen {
  /** When first seen, ms; -Infinity for what the first pass found. */
  first: number;
  last: number;
}

/** The shapes seen lately, oldest-seen first (a Map keeps insertion order). */
export class KnownShapes {
  readonly #maxEntries: number;
  readonly #seen = new Map<string, Seen>();
  /** When the first pass ran: what it finds was there before the board looked. */
  #firstPassAt: number | null = null;

  /** Keeps at most `maxEntries` shapes (default 5,000). */
  constructor(maxEntries = 5000) {
    this.#maxEntries = maxEntries;
  }

  /** How many shapes are kept. */
  get size(): number {
    return this.#seen.size;
  }

  /**
   * Notes that `task`'s failed jobs show `shapes` at `now` (ms), and returns
   * those first seen less than {@link NEW_FOR_MS} ago. Every call made at the
   * time of the first one is that first pass, which finds nothing new.
   */
  observe(task: string, shapes: readonly string[], now: number): string[] {
    this.#firstPassAt ??= now;
    this.#forgetOlderThan(now - FORGET_AFTER_MS);
    const fresh: string[] = [];
    for (const shape of shapes) {
      const key = `${task}\u0000${shape.slice(0, SHAPE_CHARS)}`;
      const seen = this.#seen.get(key) ??
        { first: now === this.#firstPassAt ? -Infinity : now, last: now };
      seen.last = now;
      this.#seen.delete(key);
      this.#seen.set(key, seen);
      if (now - seen.first < NEW_FOR_MS) fresh.push(shape);
    }
    for (const key of this.#seen.keys()) {
      if (this.#seen.size <= this.#maxEntries) break;
      this.#seen.delete(key);
    }
    return fresh;
  }

  /** Drops what was last seen before `cutoff`: those lead the map. */
  #forgetOlderThan(cutoff: number): void {
    for (const [key, { last }] of this.#seen) {
      if (last >= cutoff) break;
      this.#seen.delete(key);
    }
  }
}
