/**
 * The in-memory TaskSource: the embedded default of the board (a live demo
 * when run with the workload simulator) and the fast test bed of the
 * contract suite (seeded from a keyspace dump).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemorySource } from "./mod.ts";
 *
 * const source = createMemorySource({ simulate: true });
 * assert.ok((await source.listTasks()).length > 0, "the simulated deployment has tasks");
 * await source.close();
 * ```
 *
 * @module
 */

import { importKeyspace, type KeyspaceDump } from "./import.ts";
import { Simulator, type SimulatorOptions } from "./simulator.ts";
import { MemorySource } from "./source.ts";
import { checkedSource } from "../checked.ts";
import { MemoryStore, type MemoryStoreOptions } from "./store.ts";

export { type DumpedKey, type DumpedMember, importKeyspace, type ImportOptions } from "./import.ts";
export type { KeyspaceDump } from "./import.ts";
export { Simulator, type SimulatorOptions } from "./simulator.ts";
export { humanBytes, MemorySource } from "./source.ts";
export {
  type CancelOutcome,
  type DispatchInput,
  MemoryStore,
  type MemoryStoreOptions,
  type MinuteCounts,
  type StoredJob,
  type StoredSchedule,
  type StoreEvent,
  TaskQueue,
} from "./store.ts";
export { type RandomFn, seededRandom } from "./random.ts";
export { SortedSet } from "./sorted_set.ts";

/** Options of {@link createMemorySource}. */
export interface MemorySourceOptions extends MemoryStoreOptions {
  /**
   * Run the workload simulator: `true` for the demo defaults, or its options
   * (a seed, the tick interval, whether to pre-fill history).
   */
  simulate?: boolean | SimulatorOptions;
  /** Start from a keyspace dump (the fixture's format) instead of an empty store. */
  seed?: KeyspaceDump;
  /** The key prefix the seed was written with. */
  prefix?: string;
}

/**
 * A memory source, empty or seeded from a keyspace dump, optionally driven by
 * the workload simulator (which starts at once; `close()` stops it).
 */
export function createMemorySource(options: MemorySourceOptions = {}): MemorySource {
  const { simulate, seed, prefix, ...storeOptions } = options;
  const store = seed
    ? importKeyspace(seed, { ...storeOptions, prefix })
    : new MemoryStore(storeOptions);
  if (!simulate) return checkedSource(new MemorySource(store));
  const simulatorOptions = simulate === true ? {} : simulate;
  const simulator = new Simulator(store, simulatorOptions);
  if (simulatorOptions.history ?? true) simulator.prefill();
  simulator.start();
  return checkedSource(new MemorySource(store, simulator));
}
