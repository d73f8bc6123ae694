/**
 * Which {@link BoardStore} a source brings: the Redis source keeps the
 * board's state beside its keyspace, through its own connection; a memory
 * source keeps it beside its jobs, on its clock. `createBoard` pairs a board
 * with it unless it is given a store.
 *
 * @module
 */

import { MemoryBoardStore } from "./memory/mod.ts";
import type { BoardStore } from "./types.ts";

/**
 * The key a source holds its store under: a property, so that a proxy of
 * the source (a test's, or one that counts calls) still brings it.
 */
const PAIRED = Symbol("queue-board.store");

/** Notes that `store` is where the boards over `source` keep their state by default. */
export function pairStore(source: object, store: BoardStore): void {
  Object.defineProperty(source, PAIRED, { value: store });
}

/** The store `source` brings, or undefined for a source that brings none. */
export function pairedStore(source: object): BoardStore | undefined {
  return (source as { [PAIRED]?: BoardStore })[PAIRED];
}

/**
 * The store a board over `source` keeps its state in: `given` (the `store`
 * option), else the one `source` brings, else one of its own in memory,
 * seen by it alone, on the board's clock `now`, keeping no change feed (the
 * board reads such a source directly, as it always did).
 */
export function storeFor(
  source: object,
  given: BoardStore | null,
  now: () => number,
): BoardStore {
  return given ?? pairedStore(source) ?? new MemoryBoardStore({ shared: false, now, feed: false });
}
