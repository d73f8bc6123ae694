/**
 * Each task's wait and run percentiles over its newest finished jobs, kept
 * per board and brought up to date at most every `LATENCY_MAX_AGE_MS`:
 * shared by `GET /tasks/{task}/latency` and `GET /metrics`.
 *
 * A task's first read takes its newest `LATENCY_SAMPLE_SIZE` finished jobs;
 * later reads only those finished since the newest one kept (down to its
 * finish time, its jobs of that very millisecond told apart by id), merged
 * in front and the oldest dropped. A refresh so costs O(jobs finished since),
 * at most the sample size, instead of the whole sample each time. A job
 * removed from the finished sets after it was read (cleaned, retried) stays
 * in the sample until newer ones push it out: its times were real.
 *
 * Bounded: `LATENCY_SAMPLE_SIZE` durations per task (three numbers each), for
 * at most `LATENCY_CACHE_TASKS` tasks, the least recently asked dropped first.
 *
 * @module
 */

import {
  durationsOf,
  type FinishedDurations,
  LATENCY_CACHE_TASKS,
  type LatencySample,
  latencySample,
} from "../contract/latency.ts";
import type { TaskSource } from "../source/types.ts";

/** How many of a task's newest finished jobs a sample holds. */
export const LATENCY_SAMPLE_SIZE = 1000;
/** How long a sample is served before it is brought up to date, ms. */
export const LATENCY_MAX_AGE_MS = 10_000;

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
  /** The task's sample, brought up to date when the kept one is older than `maxAgeMs`. */
  sample(task: string): Promise<LatencySample>;
}

/** A task's kept sample: its jobs newest first, and the ids of those that finished last. */
interface Kept {
  readAt: number;
  jobs: FinishedDurations[];
  /** Ids of the kept jobs that finished at `jobs[0].finishedAt`. */
  newestIds: Set<string>;
  answer: Promise<LatencySample>;
}

/**
 * A sampler over `source`. Concurrent asks for one task share one read; a
 * failed read is not kept (the previous sample stays for the next ask).
 */
export function createLatencySampler(
  source: TaskSource,
  options: LatencySamplerOptions = {},
): LatencySampler {
  const sampleSize = options.sampleSize ?? LATENCY_SAMPLE_SIZE;
  const maxAgeMs = options.maxAgeMs ?? LATENCY_MAX_AGE_MS;
  const maxTasks = options.maxTasks ?? LATENCY_CACHE_TASKS;
  const now = options.now ?? Date.now;
  const kept = new Map<string, Kept>();

  async function refresh(task: string, previous: Kept | undefined, readAt: number) {
    const since = previous?.jobs[0]?.finishedAt;
    const read = await source.getFinishedTimings(task, sampleSize, since);
    const fresh = read.filter((t) => !(t.finishedAt === since && previous?.newestIds.has(t.id)));
    const jobs = [...fresh.map(durationsOf), ...previous?.jobs ?? []].slice(0, sampleSize);
    const newest = jobs[0]?.finishedAt;
    const newestIds = new Set(fresh.filter((t) => t.finishedAt === newest).map((t) => t.id));
    if (previous && newest === since) { for (const id of previous.newestIds) newestIds.add(id); }
    return { jobs, newestIds, sample: latencySample(jobs, sampleSize, readAt, maxAgeMs) };
  }

  return {
    sample(task) {
      const at = now();
      const previous = kept.get(task);
      kept.delete(task);
      if (previous && at - previous.readAt < maxAgeMs) {
        kept.set(task, previous);
        return previous.answer;
      }
      const reading = refresh(task, previous, at);
      const entry: Kept = {
        readAt: at,
        jobs: previous?.jobs ?? [],
        newestIds: previous?.newestIds ?? new Set(),
        answer: reading.then((r) => r.sample),
      };
      kept.set(task, entry);
      if (kept.size > maxTasks) kept.delete(kept.keys().next().value!);
      reading.then(
        (r) => {
          entry.jobs = r.jobs;
          entry.newestIds = r.newestIds;
        },
        () => {
          // Not kept: the next ask reads again, from the previous sample.
          if (kept.get(task) === entry) {
            if (previous) kept.set(task, previous);
            else kept.delete(task);
          }
        },
      );
      return entry.answer;
    },
  };
}
