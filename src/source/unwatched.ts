/**
 * Reads the board makes of its own accord (a sampler's minute, the kept
 * day of throughput), told apart from reads someone asked for. A source
 * counts a read as someone looking at the board (its background passes,
 * discovery and the retrying reconcile, then run for a minute more); a
 * board's own reads made on a timer must not, or an idle board would keep
 * itself watched forever. The mark follows the read through its awaits
 * (an `AsyncLocalStorage`), so no method of the source needs a flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readingUnwatched, unwatched } from "./unwatched.ts";
 * assert.equal(readingUnwatched(), false);
 * const inside = await unwatched(async () => {
 *   await Promise.resolve();
 *   return readingUnwatched();
 * });
 * assert.equal(inside, true);
 * ```
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";

const marked = new AsyncLocalStorage<true>();

/** Runs `read`: the source reads it makes do not count as someone looking at the board. */
export function unwatched<T>(read: () => Promise<T>): Promise<T> {
  return marked.run(true, read);
}

/** Whether the read under way was made by {@link unwatched}. */
export function readingUnwatched(): boolean {
  return marked.getStore() === true;
}
