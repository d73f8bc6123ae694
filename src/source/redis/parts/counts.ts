/**
 * The Redis source's tasks and counts: the tasks discovered, their counts per state (the
 * retrying figure the kept split's), their queue snapshots, their backlog.
 *
 * @module
 */

import type {
  BacklogAnswers,
  BacklogQuery,
  KeptParts,
  ListTasksOptions,
  QueueSnapshot,
  QueueStats,
} from "../../types.ts";
import { getQueueSnapshots } from "../queue_snapshot.ts";
import { countDueAfter } from "../backlog.ts";
import { readBacklogKinds } from "../backlog_kinds.ts";
import { getStats } from "../stats.ts";
import type { RedisContext } from "../context.ts";

/** The tasks and their counts, from Redis. */
export class RedisCounts {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /** Names of every known task, sorted (cached, refreshed in the background; `fresh`: now). */
  async listTasks(options: ListTasksOptions = {}): Promise<string[]> {
    await this.#redis.ready();
    return options.fresh
      ? await this.#redis.discovery.refresh()
      : await this.#redis.discovery.list();
  }

  /**
   * Counts per state of each task: 8 O(1) commands per task (`stats.ts`);
   * the retrying figure is the kept split's, clamped to the delayed set.
   */
  async getStats(tasks: string[]): Promise<Map<string, QueueStats>> {
    await this.#redis.ready();
    this.#redis.lookedAt(this.#redis.countsWatch);
    return await getStats(
      this.#redis.connection,
      tasks,
      (task) => this.#redis.retrying(task).retrying,
      this.#redis.prefix,
    );
  }

  /**
   * Since when each task's retrying figure is exact: now while the events
   * are followed (an SSE client is connected) since its last reconcile,
   * else that reconcile's start; null before the first. See `retrying_split.ts`.
   * On a follower, the leader's figure as it shared it last (its events
   * followed: as of that turn).
   */
  retryingAsOf(tasks: string[]): Map<string, number | null> {
    return new Map(tasks.map((task) => [task, this.#redis.retrying(task).asOf]));
  }

  /** Counts and heads per task, one script call each, less what `kept` keeps; see `queue_snapshot.ts`. */
  async getQueueSnapshots(tasks: string[], kept?: KeptParts): Promise<Map<string, QueueSnapshot>> {
    await this.#redis.ready();
    this.#redis.lookedAt(this.#redis.countsWatch);
    return await getQueueSnapshots(
      this.#redis.connection,
      tasks,
      (task) => this.#redis.retrying(task).retrying,
      this.#redis.prefix,
      kept,
    );
  }

  /** The backlog: jobs due later (`backlog.ts`), or a task's by kind (`backlog_kinds.ts`). */
  async readBacklog<R extends BacklogQuery>(read: R): Promise<BacklogAnswers[R["kind"]]> {
    await this.#redis.ready();
    const answer = read.kind === "dueAfter"
      ? countDueAfter(this.#redis.connection, read.tasks, read.at, this.#redis.prefix)
      : readBacklogKinds(
        this.#redis.connection,
        read.task,
        read.now,
        this.#redis.prefix,
        read.heldScan,
      );
    return await answer as BacklogAnswers[R["kind"]];
  }
}
