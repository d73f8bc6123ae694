/**
 * The Redis source's view of the workers: the locks taskora keeps (jobs', the scheduler's,
 * the migration's), what holds a job back, and the mechanism keys of a task.
 *
 * @module
 */

import type { LockAnswers, LockQuery } from "../../types.ts";
import { readSchedulerLeadership, readTaskLiveness } from "../liveness.ts";
import { readJobHolds } from "../diagnosis.ts";
import type { JobHolds } from "../../../contract/diagnosis.ts";
import { locateJob } from "../locate.ts";
import { readActiveLocks } from "../activity.ts";
import { scanMechanics } from "../mechanics.ts";
import type { MechanicsStep } from "../../../contract/mechanics.ts";
import type { RedisContext } from "../context.ts";

/** Locks and what holds jobs back, in Redis. */
export class RedisWorkers {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /**
   * The locks taskora keeps; see `liveness.ts`, `activity.ts` and
   * `wire/migration_lock.ts` (one round trip, read without the wire check:
   * a migration may be changing the wire version).
   */
  async readLocks<R extends LockQuery>(read: R): Promise<LockAnswers[R["kind"]]> {
    if (read.kind === "migration") {
      await this.#redis.connection.ready();
    } else {
      await this.#redis.ready();
    }
    return await this.#readLock(read) as LockAnswers[R["kind"]];
  }

  #readLock(read: LockQuery): Promise<LockAnswers[LockQuery["kind"]]> {
    switch (read.kind) {
      case "jobs":
        return readTaskLiveness(this.#redis.connection, read.task, read.jobIds, this.#redis.prefix);
      case "active":
        return readActiveLocks(this.#redis.connection, read.task, read.limit, this.#redis.prefix);
      case "scheduler":
        return readSchedulerLeadership(this.#redis.connection, this.#redis.prefix);
      case "migration":
        return this.#redis.migration.read();
    }
  }

  /** What holds a job back; see `diagnosis.ts`. */
  async getJobHolds(jobId: string): Promise<JobHolds | null> {
    await this.#redis.ready();
    const tasks = await this.#redis.discovery.list();
    const task = await locateJob(this.#redis.connection, tasks, jobId, this.#redis.prefix, "hash");
    return task === null
      ? null
      : await readJobHolds(this.#redis.connection, task, jobId, this.#redis.prefix);
  }

  /** One bounded step of the scan for the task's mechanism keys; see `mechanics.ts`. */
  async scanMechanics(
    task: string,
    cursor: string | null,
    signal?: AbortSignal,
  ): Promise<MechanicsStep> {
    await this.#redis.ready();
    return await scanMechanics(this.#redis.connection, task, cursor, this.#redis.prefix, signal);
  }
}
