/**
 * Each task's wait and run percentiles, read from its newest finished jobs
 * and reused for a short while: one board's cache, bounded in tasks and in
 * age, shared by `GET /tasks/{task}/latency` and `GET /metrics`.
 *
 * @module
 */

import { type LatencySample, latencySample } from "../contract/latency.ts";
import type { TaskSource } from "../source/types.ts";

/** How many of a task's newest finished jobs a sample reads. */
export const LATENCY_SAMPLE_SIZE = 1000;
/** How long a sample is reused, ms. */
export const LATENCY_MAX_AGE_MS = 10_000;
/** How many tasks' samples are kept at most; the least recently read goes first. */
export const LATENCY_CACHE_TASKS = 1000;

/** Options of {@link createLatencySampler} (tests shrink them). */
export interface LatencySamplerOptions {
  sampleSize?: number;
  maxAgeMs?: number;
  maxTasks?: number;
  /** The clock (ms). */
  now?: () => number;
}

/** Reads and keeps samples; see {@link createLatencySampler}. */
export interface LatencySampler {
  /** The task's sample, read anew when the kept one is older than `maxAgeMs`. */
  sample(task: string): Promise<LatencySample>;
}

/**
 * A sampler over `source`. Concurrent asks for one task share one read; a
 * failed read is not kept.
 */
export function createLatencySampler(
  source: TaskSource,
  options: LatencySamplerOptions = {},
): LatencySampler {
  const sampleSize = options.sampleSize ?? LATENCY_SAMPLE_SIZE;
  const maxAgeMs = options.maxAgeMs ?? LATENCY_MAX_AGE_MS;
  const maxTasks = options.maxTasks ?? LATENCY_CACHE_TASKS;
  const now = options.now ?? Date.now;
  const kept = new Map<string, { readAt: number; sample: Promise<LatencySample> }>();

  async function read(task: string, readAt: number): Promise<LatencySample> {
    const timings = await source.getFinishedTimings(task, sampleSize);
    return latencySample(timings, sampleSize, readAt, maxAgeMs);
  }

  return {
    sample(task) {
      const at = now();
      const entry = kept.get(task);
      kept.delete(task);
      if (entry && at - entry.readAt < maxAgeMs) {
        kept.set(task, entry);
        return entry.sample;
      }
      const fresh = { readAt: at, sample: read(task, at) };
      kept.set(task, fresh);
      if (kept.size > maxTasks) kept.delete(kept.keys().next().value!);
      fresh.sample.catch(() => {
        if (kept.get(task) === fresh) kept.delete(task);
      });
      return fresh.sample;
    },
  };
}
