/**
 * One read at a time for answers that are the same for every client: calls
 * that arrive while a read runs get its answer, and nothing is kept once it
 * settles (the next call reads again). N clients polling at once then cost
 * the store one read and the board one answer in memory, not N.
 *
 * @module
 */

/**
 * Wraps `read` so that concurrent calls share one run of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sharedRead } from "./shared_read.ts";
 * let runs = 0;
 * const read = sharedRead(async () => ++runs);
 * assert.deepEqual(await Promise.all([read(), read()]), [1, 1]);
 * assert.deepEqual(await read(), 2);
 * ```
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return function shared() {
    running ??= read().finally(() => running = null);
    return running;
  };
}
