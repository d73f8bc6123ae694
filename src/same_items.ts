/**
 * Whether two lists hold the same items in the same order: what the
 * memoized reads (the schedules' replies, records and texts) compare a new
 * read with before answering their last result again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameItems } from "./same_items.ts";
 *
 * assert.equal(sameItems(["a", "b"], ["a", "b"]), true);
 * assert.equal(sameItems(["a", "b"], ["b", "a"]), false);
 * // Objects by identity, unless a comparison is given.
 * assert.equal(sameItems([{ id: 1 }], [{ id: 1 }]), false);
 * assert.equal(sameItems([{ id: 1 }], [{ id: 1 }], (x, y) => x.id === y.id), true);
 * ```
 *
 * @module
 */

/** Whether `a` and `b` have as many items and each pair is `same` (default: `===`). */
export function sameItems<T>(
  a: readonly T[],
  b: readonly T[],
  same: (x: T, y: T) => boolean = (x, y) => x === y,
): boolean {
  // A kept read answered again is the same list: nothing to look at.
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
  return true;
}
