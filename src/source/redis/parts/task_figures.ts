/**
 * The Redis source's figures of a task and of Redis: finished jobs' times, storage, the
 * version spread, throughput, and what Redis says of itself.
 *
 * @module
 */

import type {
  FinishedTiming,
  KeptMinutes,
  StoreInfo,
  TaskStorage,
  ThroughputBucket,
  ThroughputQuery,
  VersionDistribution,
} from "../../types.ts";
import { getStoreInfo } from "../info.ts";
import { getFinishedTimings } from "../finished_timings.ts";
import { getTaskStorage } from "../storage.ts";
import { getThroughput, getThroughputByTask } from "../throughput.ts";
import { getVersionDistribution } from "../versions.ts";
import type { RedisContext } from "../context.ts";

/** A task's figures and Redis's. */
export class RedisTaskFigures {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /** The times of the task's newest finished jobs; see `finished_timings.ts`. */
  async getFinishedTimings(
    task: string,
    limit: number,
    since?: number,
  ): Promise<FinishedTiming[]> {
    await this.#redis.ready();
    return await getFinishedTimings(this.#redis.connection, task, limit, since, this.#redis.prefix);
  }

  /** Key count and memory of a task (partly estimated; see `storage.ts`). */
  async getTaskStorage(task: string): Promise<TaskStorage> {
    await this.#redis.ready();
    return await getTaskStorage(this.#redis.connection, task, this.#redis.prefix);
  }

  /** Task-version spread of the jobs yet to run. */
  async getVersionDistribution(task: string): Promise<VersionDistribution> {
    await this.#redis.ready();
    return await getVersionDistribution(this.#redis.connection, task, this.#redis.prefix);
  }

  /** Finished-job counts per bucket, oldest first. */
  async getThroughput(query: ThroughputQuery = {}): Promise<ThroughputBucket[]> {
    await this.#redis.ready();
    const tasks = query.task !== undefined ? [query.task] : await this.#redis.discovery.list();
    return await getThroughput(this.#redis.connection, tasks, {
      bucketMs: query.bucketMs,
      count: query.count,
      prefix: this.#redis.prefix,
      cache: this.#redis.closedMinutes,
    });
  }

  /** Each task's own finished-job counts per bucket, one pipeline for all; see `throughput.ts`. */
  async getThroughputByTask(
    tasks: string[],
    query: Omit<ThroughputQuery, "task"> = {},
    kept: KeptMinutes = {},
  ): Promise<Map<string, ThroughputBucket[]>> {
    await this.#redis.ready();
    return await getThroughputByTask(this.#redis.connection, tasks, {
      bucketMs: query.bucketMs,
      count: query.count,
      prefix: this.#redis.prefix,
      cache: this.#redis.closedMinutes,
      keptFailures: kept.failures,
    });
  }

  /** Version, memory and uptime of Redis. */
  async getStoreInfo(): Promise<StoreInfo> {
    await this.#redis.connection.ready();
    return await getStoreInfo(this.#redis.connection);
  }
}
