/**
 * The Redis source's dead letters: failed jobs, newest first, grouped by error (cached a few
 * seconds), and retried in batches.
 *
 * @module
 */

import type {
  BeforeBatch,
  DeadLetterGroup,
  FailedScope,
  JobPage,
  ShownError,
} from "../../types.ts";
import { listDeadLetters, listGroupDeadLetters, readDeadLetterEntries } from "../dead_letters.ts";
import { retryAllFailed, retryFailedJobs } from "../retry.ts";
import { inGroup } from "../../dead_letters.ts";
import type { RedisContext } from "../context.ts";

/** Failed jobs, in Redis. */
export class RedisDeadLetters {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /** Failed jobs (of one error group, with `pattern`), most recently failed first. */
  async listDeadLetters(offset: number, limit: number, scope: FailedScope = {}): Promise<JobPage> {
    const { task, pattern, shown } = scope;
    await this.#redis.ready();
    if (pattern !== undefined) {
      const members = await this.#redis.deadLetters.members(pattern, task, shown);
      return this.#redis.served(
        await listGroupDeadLetters(
          this.#redis.connection,
          members,
          offset,
          limit,
          this.#redis.prefix,
        ),
      );
    }
    const tasks = task !== undefined ? [task] : await this.#redis.discovery.list();
    return this.#redis.served(
      await listDeadLetters(this.#redis.connection, tasks, offset, limit, this.#redis.prefix),
    );
  }

  /** Failed jobs grouped by their error as `shown` (cached a few seconds). */
  async groupDeadLetters(task?: string, shown?: ShownError): Promise<DeadLetterGroup[]> {
    await this.#redis.ready();
    return await this.#redis.deadLetters.get(task, shown);
  }

  /**
   * Every failed job of a task (or of every task, rediscovered first) back to
   * waiting; of one error group, with a pattern: that group read afresh, not
   * from the grouping cache, so only jobs failed now are touched.
   */
  async retryAllFailed(
    scope: FailedScope = {},
    beforeBatch?: BeforeBatch,
  ): Promise<{ retried: number }> {
    await this.#redis.ready();
    const { task, pattern, shown } = scope;
    let retried = 0;
    if (pattern !== undefined) {
      const tasks = task !== undefined ? [task] : await this.#redis.discovery.list();
      const entries = await readDeadLetterEntries(
        this.#redis.connection,
        tasks,
        this.#redis.prefix,
      );
      const group = inGroup(entries, pattern, shown);
      retried = await retryFailedJobs(
        this.#redis.connection,
        group,
        this.#redis.prefix,
        beforeBatch,
      );
    } else {
      const tasks = task !== undefined ? [task] : await this.#redis.discovery.refresh();
      const counts = await Promise.all(
        tasks.map((name) =>
          retryAllFailed(this.#redis.connection, name, this.#redis.prefix, beforeBatch)
        ),
      );
      retried = counts.reduce((sum, n) => sum + n, 0);
    }
    this.#redis.deadLetters.invalidate();
    return { retried };
  }
}
