/**
 * The App source's figures of a task and of the store: finished jobs'
 * times, storage, the version spread, throughput and the server's info, as
 * the adapter reports them.
 *
 * @module
 */

import type {
  FinishedTiming,
  StoreInfo,
  TaskStorage,
  ThroughputBucket,
  ThroughputQuery,
  VersionCounts,
  VersionDistribution,
} from "../../source/types.ts";
import { findTask } from "../app.ts";
import type { AppApi } from "./app_api.ts";

/** A task's figures and the store's, through the App's adapter. */
export class AppTaskFigures {
  readonly #api: AppApi;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  /** The newest `limit` completed and failed jobs the adapter lists (finished at or after `since`). */
  async getFinishedTimings(
    task: string,
    limit: number,
    since = -Infinity,
  ): Promise<FinishedTiming[]> {
    const lists = await Promise.all(
      (["completed", "failed"] as const).map((state) =>
        this.#api.adapter.listJobDetails(task, state, 0, limit)
      ),
    );
    return lists.flat()
      .map(({ id, details }) => ({
        job: this.#api.decode(task, id, details),
        delay: Number(details.fields.delay) || 0,
      }))
      .filter(({ job }) => job.finishedAt !== null && job.finishedAt >= since)
      .map(({ job, delay }) => ({
        id: job.id,
        createdAt: job.createdAt,
        delay,
        processedAt: job.processedAt,
        finishedAt: job.finishedAt!,
      }))
      .sort((a, b) => b.finishedAt - a.finishedAt)
      .slice(0, limit);
  }

  /** What the adapter reports for the task. */
  async getTaskStorage(task: string): Promise<TaskStorage> {
    const { keyCount, memoryBytes } = await this.#api.adapter.getTaskKeyStats(task);
    return { keyCount, memoryBytes };
  }

  /** Versions of the jobs yet to run (retrying jobs counted with delayed ones, as taskora does). */
  async getVersionDistribution(task: string): Promise<VersionDistribution> {
    const dist = await this.#api.adapter.getVersionDistribution(task);
    const queue: VersionCounts = {};
    for (const bucket of [dist.waiting, dist.active]) {
      for (const [v, n] of Object.entries(bucket)) queue[v] = (queue[v] ?? 0) + n;
    }
    return {
      queue,
      delayed: { ...dist.delayed },
      retrying: {},
      latestVersion: findTask(this.#api.app, task)?.version ?? null,
    };
  }

  /** Finished-job counts per bucket, from the adapter. */
  async getThroughput(query: ThroughputQuery = {}): Promise<ThroughputBucket[]> {
    return await this.#api.adapter.getThroughput(
      query.task ?? null,
      query.bucketMs ?? 60_000,
      query.count ?? 1440,
    );
  }

  /** {@link getThroughput} of each task. */
  async getThroughputByTask(
    tasks: string[],
    query: Omit<ThroughputQuery, "task"> = {},
  ): Promise<Map<string, ThroughputBucket[]>> {
    const series = await Promise.all(tasks.map((task) => this.getThroughput({ ...query, task })));
    return new Map(tasks.map((task, i) => [task, series[i]]));
  }

  /** What the adapter reports about its store. */
  async getStoreInfo(): Promise<StoreInfo> {
    const info = await this.#api.adapter.getServerInfo();
    return {
      version: info.version,
      usedMemory: info.usedMemory,
      usedMemoryBytes: info.usedMemoryBytes ?? 0,
      uptime: info.uptime,
      connected: info.connected,
    };
  }
}
