/**
 * The Redis source's bounded reads of the tasks' event streams: activity, re-runs, drain and
 * a job's attempts, each read inside Redis.
 *
 * @module
 */

import type { StreamAnswers, StreamQuery } from "../../types.ts";
import { getAttemptHistory } from "../attempts.ts";
import { readTaskActivity } from "../activity.ts";
import { scanDrain } from "../drain_scan.ts";
import { getTaskReruns } from "../reruns.ts";
import type { RedisContext } from "../context.ts";

/** What the streams say. */
export class RedisStreams {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /**
   * What the event streams say; see `activity.ts`, `reruns.ts`,
   * `drain_scan.ts` and `attempts.ts` for each read's cost.
   */
  async readStreams<R extends StreamQuery>(read: R): Promise<StreamAnswers[R["kind"]]> {
    await this.#redis.ready();
    return await this.#readStream(read) as StreamAnswers[R["kind"]];
  }

  #readStream(read: StreamQuery): Promise<StreamAnswers[StreamQuery["kind"]]> {
    switch (read.kind) {
      case "activity":
        return readTaskActivity(this.#redis.connection, read.tasks, read.depth, this.#redis.prefix);
      case "reruns":
        return getTaskReruns(this.#redis.connection, read.tasks, read.since, this.#redis.prefix);
      case "drain":
        return scanDrain(
          this.#redis.connection,
          read.task,
          read.since,
          read.depth,
          this.#redis.prefix,
        );
      case "attempts":
        return this.#redis.discovery.list().then((tasks) =>
          getAttemptHistory(this.#redis.connection, tasks, read.jobId, this.#redis.prefix)
        );
    }
  }
}
