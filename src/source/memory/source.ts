/**
 * `MemorySource`: the TaskSource port answered from a {@link MemoryStore},
 * following the same rules as the Redis source reading taskora's keyspace
 * (the contract suite holds both to the same answers). It is assembled from
 * one part per concern, in `parts/`: tasks and counts, a task's figures,
 * jobs, job actions, dead letters, schedules, workflows, events, workers,
 * streams.
 *
 * @module
 */

import { MemoryBoardStore } from "../../store/memory/mod.ts";
import { pairStore } from "../../store/pairing.ts";
import { assemble, type Assembled } from "../assemble.ts";
import type { TaskSource } from "../types.ts";
import type { Simulator } from "./simulator.ts";
import type { MemoryStore } from "./store.ts";
import { MemoryCounts } from "./parts/counts.ts";
import { MemoryTaskFigures } from "./parts/task_figures.ts";
import { MemoryJobs } from "./parts/jobs.ts";
import { MemoryJobActions } from "./parts/job_actions.ts";
import { MemoryDeadLetters } from "./parts/dead_letters.ts";
import { MemorySchedules } from "./parts/schedules.ts";
import { MemoryWorkflows } from "./parts/workflows.ts";
import { MemoryEvents } from "./parts/events.ts";
import { MemoryWorkers } from "./parts/workers.ts";
import { MemoryStreams } from "./parts/streams.ts";

export { humanBytes } from "./parts/task_figures.ts";

/** The parts a memory source is assembled from, each over its store. */
function partsOf(store: MemoryStore) {
  return [
    new MemoryCounts(store),
    new MemoryTaskFigures(store),
    new MemoryJobs(store),
    new MemoryJobActions(store),
    new MemoryDeadLetters(store),
    new MemorySchedules(store),
    new MemoryWorkflows(store),
    new MemoryEvents(store),
    new MemoryWorkers(store),
    new MemoryStreams(store),
  ] as const;
}

/** The methods the parts give a memory source. */
type MemoryParts = Assembled<[...ReturnType<typeof partsOf>]>;

/** The TaskSource of an in-process store: the methods of its parts (see the class). */
export interface MemorySource extends MemoryParts {}

/** The TaskSource of an in-process store, optionally driven by the workload simulator. */
export class MemorySource {
  /** The state it answers from; the actions below change it through its transitions. */
  readonly store: MemoryStore;
  /** The workload simulator, when the source runs one. */
  readonly simulator: Simulator | null;
  #closed = false;
  /**
   * What the boards over this source keep, on the store's clock: every board
   * on it sees it, as replicas on one Redis do.
   */
  readonly boardStore: MemoryBoardStore;

  /** A source over `store`; `close()` stops `simulator` when given. */
  constructor(store: MemoryStore, simulator: Simulator | null = null) {
    this.store = store;
    this.simulator = simulator;
    Object.assign(this, assemble(...partsOf(store)));
    this.boardStore = new MemoryBoardStore({ now: () => store.now() });
    pairStore(this, this.boardStore);
  }

  /** Stops the simulator; the store's data stays readable. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.simulator?.stop();
    }
    return Promise.resolve();
  }
}

/** The memory source is a whole TaskSource: `deno check` fails when a part leaves a method out. */
true satisfies MemorySource extends TaskSource ? true : never;
