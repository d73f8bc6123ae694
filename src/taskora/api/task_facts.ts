/**
 * What the App source knows of a task that the keyspace does not record
 * (its definition), and what taskora's API cannot show (job locks, the
 * scheduler's leader), said as unknown.
 *
 * @module
 */

import type { LockAnswers, LockQuery, TaskDefinition } from "../../source/types.ts";
import { appTaskDefinition } from "../definitions.ts";
import type { AppApi } from "./app_api.ts";

/** A task's definition, and what the API cannot show. */
export class AppTaskFacts {
  readonly #api: AppApi;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  /** The App's definition of a task. */
  getTaskDefinition(task: string): Promise<TaskDefinition | null> {
    return Promise.resolve(appTaskDefinition(this.#api.app, this.#api.declared, task));
  }

  /**
   * The locks, as far as taskora's API shows them: no job lock, no stalled
   * set and no scheduler leader (said as unknown), the active jobs counted
   * without their locks, and no migration lock (the App's adapters other
   * than Redis keep none).
   */
  async readLocks<R extends LockQuery>(read: R): Promise<LockAnswers[R["kind"]]> {
    return await this.#read(read) as LockAnswers[R["kind"]];
  }

  async #read(read: LockQuery): Promise<LockAnswers[LockQuery["kind"]]> {
    switch (read.kind) {
      case "jobs":
        return {
          known: false,
          reason: "taskora's App API shows no job lock and no stalled set; the board reads " +
            "them from Redis, with the App's Redis adapter or a redis:// URL",
        };
      case "active":
        return { active: (await this.#api.adapter.getQueueStats(read.task)).active, locks: [] };
      case "scheduler":
        return {
          known: false,
          reason: "taskora's App API does not say which scheduler holds the leader lock; the " +
            "board reads it from Redis, with the App's Redis adapter or a redis:// URL",
        };
      case "migration":
        return null;
    }
  }
}
