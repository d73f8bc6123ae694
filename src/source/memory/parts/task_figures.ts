/**
 * The memory source's figures of a task and of the store: finished jobs'
 * times, storage, the version spread, throughput, and an estimate of what
 * Redis would report for the same data.
 *
 * @module
 */

import {
  FINISHED_STATES,
  type FinishedTiming,
  type StoreInfo,
  type TaskStorage,
  type ThroughputBucket,
  type ThroughputQuery,
  type VersionCounts,
  type VersionDistribution,
} from "../../types.ts";
import { minuteCounts } from "../minute_counts.ts";
import { KEY_OVERHEAD_BYTES, type MemoryStore, type StoredJob, type TaskQueue } from "../store.ts";
import { idsInState, queueOf } from "./reads.ts";

/** What an idle Redis reports as used memory; the estimate starts there. */
const BASE_MEMORY_BYTES = 1_000_000;

/**
 * Bytes as Redis's `used_memory_human` shows them: `812B`, `1.02K`, `3.40M`, `1.10G`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(humanBytes(3_565_158), "3.40M");
 * ```
 */
export function humanBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ["K", "M", "G", "T"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)}${units[unit]}`;
}

/** A task's figures and the store's. */
export class MemoryTaskFigures {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** The newest `limit` of the task's completed and failed jobs (finished at or after `since`). */
  getFinishedTimings(task: string, limit: number, since = -Infinity): Promise<FinishedTiming[]> {
    return Promise.try(() => {
      const queue = queueOf(this.#store, task);
      const newest: StoredJob[] = [];
      for (const state of ["completed", "failed"] as const) {
        let taken = 0;
        for (const { member, score } of queue.finished[state].descending()) {
          if (score < since || taken === limit) break;
          taken++;
          const job = queue.jobs.get(member);
          if (job && job.finishedAt !== null) newest.push(job);
        }
      }
      return newest
        .sort((a, b) => b.finishedAt! - a.finishedAt!)
        .slice(0, limit)
        .map((job) => ({
          id: job.id,
          createdAt: job.createdAt,
          delay: job.delay ?? 0,
          processedAt: job.processedAt,
          finishedAt: job.finishedAt!,
        }));
    });
  }

  /** Keys taskora would hold for the task and their estimated memory. */
  getTaskStorage(task: string): Promise<TaskStorage> {
    return Promise.try(() => {
      const queue = queueOf(this.#store, task);
      let keyCount = queue.jobs.size;
      for (const job of queue.jobs.values()) if (job.logs.length > 0) keyCount++;
      const structures = [
        queue.wait.length,
        queue.prioritized.size,
        queue.active.length,
        queue.delayed.size,
        ...FINISHED_STATES.map((state) => queue.finished[state].size),
        queue.streamLength,
      ].filter((size) => size > 0).length;
      let metricKeys = 0;
      for (const counts of queue.metrics.values()) {
        metricKeys += (counts.completed > 0 ? 1 : 0) + (counts.failed > 0 ? 1 : 0);
      }
      keyCount += structures + metricKeys;
      return {
        keyCount,
        memoryBytes: queue.jobBytes + queue.structureBytes + structures * KEY_OVERHEAD_BYTES,
      };
    });
  }

  /** Versions of waiting + active, delayed and retrying jobs; the highest `_v` of any job. */
  getVersionDistribution(task: string): Promise<VersionDistribution> {
    return Promise.try(() => {
      const queue = queueOf(this.#store, task);
      const tally = (counts: VersionCounts, id: string) => {
        const job = queue.jobs.get(id);
        if (job) counts[job.version] = (counts[job.version] ?? 0) + 1;
      };
      const distribution: VersionDistribution = {
        queue: {},
        delayed: {},
        retrying: {},
        latestVersion: null,
      };
      for (const id of idsInState(queue, "waiting")) tally(distribution.queue, id);
      for (const id of queue.active) tally(distribution.queue, id);
      for (const { member } of queue.delayed.ascending()) {
        const state = queue.jobs.get(member)?.state;
        if (state === "delayed" || state === "retrying") tally(distribution[state], member);
      }
      for (const job of queue.jobs.values()) {
        if (distribution.latestVersion === null || job.version > distribution.latestVersion) {
          distribution.latestVersion = job.version;
        }
      }
      return distribution;
    });
  }

  /** Each task's own buckets; zeros for a task the store does not know. */
  getThroughputByTask(
    tasks: string[],
    query: Omit<ThroughputQuery, "task"> = {},
  ): Promise<Map<string, ThroughputBucket[]>> {
    return Promise.try(() => {
      const byTask = new Map<string, ThroughputBucket[]>();
      for (const task of tasks) {
        const queue = this.#store.tasks.get(task);
        byTask.set(task, this.#buckets(queue ? [queue] : [], query));
      }
      return byTask;
    });
  }

  /** Completed and failed counts per bucket, oldest first, ending with the current bucket. */
  getThroughput(query: ThroughputQuery = {}): Promise<ThroughputBucket[]> {
    return Promise.try(() => {
      const queues = query.task === undefined
        ? [...this.#store.tasks.values()]
        : [queueOf(this.#store, query.task)];
      return this.#buckets(queues, query);
    });
  }

  /** The finished-job counts of `queues` summed per bucket, oldest first (see `minute_counts.ts`). */
  #buckets(
    queues: readonly TaskQueue[],
    query: Omit<ThroughputQuery, "task">,
  ): ThroughputBucket[] {
    const bucketMs = query.bucketMs ?? 60_000;
    const count = query.count ?? 1_440;
    const last = Math.floor(this.#store.now() / bucketMs) * bucketMs;
    const first = last - (count - 1) * bucketMs;
    const buckets: ThroughputBucket[] = Array.from({ length: count }, (_, i) => ({
      timestamp: first + i * bucketMs,
      completed: 0,
      failed: 0,
    }));
    for (const queue of queues) {
      for (const [minute, counts] of minuteCounts(queue, first)) {
        const index = (Math.floor(minute / bucketMs) * bucketMs - first) / bucketMs;
        if (index < 0 || index >= count) continue;
        buckets[index].completed += counts.completed;
        buckets[index].failed += counts.failed;
      }
    }
    return buckets;
  }

  /** An estimate of what Redis would report for the same data. */
  getStoreInfo(): Promise<StoreInfo> {
    let bytes = BASE_MEMORY_BYTES;
    for (const queue of this.#store.tasks.values()) bytes += queue.jobBytes + queue.structureBytes;
    for (const hash of this.#store.workflows.values()) {
      bytes += KEY_OVERHEAD_BYTES;
      for (const [field, value] of Object.entries(hash)) bytes += field.length + value.length + 8;
    }
    for (const [name, { json }] of this.#store.schedules) bytes += name.length + json.length + 24;
    return Promise.resolve({
      version: "memory",
      usedMemory: humanBytes(bytes),
      usedMemoryBytes: bytes,
      uptime: Math.floor((this.#store.now() - this.#store.createdAt) / 1000),
      connected: true,
    });
  }
}
