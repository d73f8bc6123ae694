/**
 * The error shapes (see `errorPattern`) the `newErrorGroup` rule has seen,
 * per task, in a bounded structure: at most `maxEntries`, the least recently
 * seen forgotten first, and a shape not seen for 24 h forgotten anyway, so
 * it is new when it comes back. The leader keeps a copy in the store (see
 * `shape_store.ts`): what changed since the last write is noted here.
 *
 * @module
 */

import {
  KNOWN_SHAPE_CHARS,
  KNOWN_SHAPES_TTL_MS,
  type KnownShape,
  type KnownShapesChange,
  type KnownShapesRecord,
  MAX_KNOWN_SHAPES,
} from "../contract/alerts.ts";

const HOUR = 3_600_000;

/** A shape unseen for this long is forgotten: the "not seen in the last 24 h". */
export const FORGET_AFTER_MS = KNOWN_SHAPES_TTL_MS;

/** A shape counts as new for this long after it first appeared, so its alert can fire and hold. */
export const NEW_FOR_MS = HOUR;

interface Seen {
  task: string;
  shape: string;
  /** When first seen, ms; -Infinity for what the first pass found. */
  first: number;
  last: number;
}

const keyOf = (task: string, shape: string) => `${task}\u0000${shape}`;

/** The shapes seen lately, oldest-seen first (a Map keeps insertion order). */
export class KnownShapes {
  readonly #maxEntries: number;
  readonly #seen = new Map<string, Seen>();
  /** When the first pass ran: what it finds was there before the board looked. */
  #firstPassAt: number | null = null;
  /** Keys seen, and keys forgotten, since the last {@link takeChange}. */
  #touched = new Set<string>();
  #forgotten = new Map<string, { task: string; shape: string }>();
  /** Whether the next change is the whole set: a write was lost, or the forgotten overflowed. */
  #whole = false;

  /** Keeps at most `maxEntries` shapes (default 5,000). */
  constructor(maxEntries = MAX_KNOWN_SHAPES) {
    this.#maxEntries = maxEntries;
  }

  /**
   * The shapes a leader before kept (`record`), those seen since `now`
   * minus 24 h: a board that starts leading carries on from them, so a
   * shape that appeared while the lead passed over is new to it.
   */
  static from(record: KnownShapesRecord, now: number, maxEntries = MAX_KNOWN_SHAPES): KnownShapes {
    const shapes = new KnownShapes(maxEntries);
    shapes.#firstPassAt = record.baselineAt;
    const kept = record.shapes
      .filter((known) => known.last >= now - FORGET_AFTER_MS)
      .sort((a, b) => a.last - b.last)
      .slice(-maxEntries);
    for (const { task, shape, first, last } of kept) {
      const cut = shape.slice(0, KNOWN_SHAPE_CHARS);
      shapes.#seen.set(keyOf(task, cut), { task, shape: cut, first: first ?? -Infinity, last });
    }
    return shapes;
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
      const cut = shape.slice(0, KNOWN_SHAPE_CHARS);
      const key = keyOf(task, cut);
      const seen = this.#seen.get(key) ??
        { task, shape: cut, first: now === this.#firstPassAt ? -Infinity : now, last: now };
      seen.last = now;
      this.#seen.delete(key);
      this.#seen.set(key, seen);
      this.#touched.add(key);
      this.#forgotten.delete(key);
      if (now - seen.first < NEW_FOR_MS) fresh.push(shape);
    }
    for (const key of this.#seen.keys()) {
      if (this.#seen.size <= this.#maxEntries) break;
      this.#forget(key);
    }
    return fresh;
  }

  /**
   * What changed since the last call, for the store (null when nothing did
   * and no pass ran); marks it taken. {@link changeLost} after a failed write.
   */
  takeChange(): KnownShapesChange | null {
    if (this.#firstPassAt === null) return null;
    const shapeOf = ({ task, shape, first, last }: Seen): KnownShape => ({
      task,
      shape,
      first: first === -Infinity ? null : first,
      last,
    });
    const seen = this.#whole
      ? [...this.#seen.values()]
      : [...this.#touched].flatMap((key) => this.#seen.get(key) ?? []);
    const change = {
      baselineAt: this.#firstPassAt,
      whole: this.#whole,
      seen: seen.map(shapeOf),
      forgotten: this.#whole ? [] : [...this.#forgotten.values()],
    };
    this.#touched.clear();
    this.#forgotten.clear();
    this.#whole = false;
    return change;
  }

  /** The last change was not written, or the store holds more than it should: write all next. */
  changeLost(): void {
    this.#whole = true;
  }

  /** Drops what was last seen before `cutoff`: those lead the map. */
  #forgetOlderThan(cutoff: number): void {
    for (const [key, { last }] of this.#seen) {
      if (last >= cutoff) break;
      this.#forget(key);
    }
  }

  #forget(key: string): void {
    const { task, shape } = this.#seen.get(key)!;
    this.#seen.delete(key);
    this.#touched.delete(key);
    // Past the cap, the next write is whole instead: what is forgotten stays bounded.
    if (this.#forgotten.size >= this.#maxEntries) this.#whole = true;
    else this.#forgotten.set(key, { task, shape });
  }
}
