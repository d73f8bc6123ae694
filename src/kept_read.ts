/**
 * A read kept for a while: calls within `forMs` of the last read that
 * succeeded get its answer; calls while a read runs share it (as
 * `shared_read.ts`); a failed read is not kept, so the next call reads again.
 * For what changes slowly and is shown as of when it was read, where every
 * request reading it costs more than the request itself.
 *
 * @module
 */

import { sharedRead } from "./shared_read.ts";

/** An answer and when it was read (the clock's ms). */
export interface Kept<T> {
  value: T;
  readAt: number;
}

/**
 * Wraps `read` so that its answer serves every call for `forMs` of `clock`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keptRead } from "./kept_read.ts";
 * let now = 0;
 * let runs = 0;
 * const read = keptRead(async () => ++runs, 1_000, () => now);
 * assert.deepEqual(await read(), { value: 1, readAt: 0 });
 * now = 999;
 * assert.equal((await read()).value, 1, "kept");
 * now = 1_000;
 * assert.deepEqual(await read(), { value: 2, readAt: 1_000 });
 * ```
 */
export function keptRead<T>(
  read: () => Promise<T>,
  forMs: number,
  clock: () => number,
): () => Promise<Kept<T>> {
  let kept: Kept<T> | null = null;
  const fresh = sharedRead(async () => {
    const readAt = clock();
    kept = { value: await read(), readAt };
    return kept;
  });
  return () => kept !== null && clock() - kept.readAt < forMs ? Promise.resolve(kept) : fresh();
}
