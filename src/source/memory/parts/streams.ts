/**
 * The memory source's event streams, read as the Redis source reads
 * taskora's: a task's activity, re-runs and drain, a job's attempts.
 *
 * @module
 */

import type { StreamAnswers, StreamQuery } from "../../types.ts";
import { taskActivity } from "../activity.ts";
import { attemptHistory } from "../attempts.ts";
import { drainScan } from "../drain_scan.ts";
import { rerunsOf } from "../reruns.ts";
import type { MemoryStore, StoreEvent } from "../store.ts";

/** What the store's streams say. */
export class MemoryStreams {
  readonly #store: MemoryStore;

  /** Reads `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** What the streams say, as `read` asks (an unknown task's stream is empty). */
  async readStreams<R extends StreamQuery>(read: R): Promise<StreamAnswers[R["kind"]]> {
    return await this.#read(read) as StreamAnswers[R["kind"]];
  }

  #read(
    read: StreamQuery,
  ): Promise<StreamAnswers[StreamQuery["kind"]]> | StreamAnswers[StreamQuery["kind"]] {
    switch (read.kind) {
      case "activity":
        return new Map(
          read.tasks.map((task) => [task, taskActivity(this.#stream(task), read.depth)]),
        );
      case "reruns":
        return new Map(read.tasks.map((task) => [task, rerunsOf(this.#stream(task), read.since)]));
      case "drain":
        return drainScan(this.#stream(read.task), read.since, read.depth);
      case "attempts":
        return attemptHistory(this.#store, read.jobId);
    }
  }

  #stream(task: string): readonly StoreEvent[] {
    return this.#store.tasks.get(task)?.stream ?? [];
  }
}
