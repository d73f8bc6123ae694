/**
 * What the App source knows of a task that the keyspace does not record
 * (its definition), and what taskora's API cannot show (job locks, the
 * scheduler's leader), said as unknown.
 *
 * @module
 */

import type { SchedulerLeadership, TaskDefinition, TaskLiveness } from "../../source/types.ts";
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

  /** Not known: taskora's API shows no job lock and no stalled set. */
  getTaskLiveness(): Promise<TaskLiveness> {
    return Promise.resolve({
      known: false,
      reason: "taskora's App API shows no job lock and no stalled set; the board reads them " +
        "from Redis, with the App's Redis adapter or a redis:// URL",
    });
  }

  /** Not known: taskora's API does not say which scheduler leads. */
  getSchedulerLeadership(): Promise<SchedulerLeadership> {
    return Promise.resolve({
      known: false,
      reason: "taskora's App API does not say which scheduler holds the leader lock; the board " +
        "reads it from Redis, with the App's Redis adapter or a redis:// URL",
    });
  }
}
