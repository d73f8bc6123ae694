/**
 * The backlog samples the drain forecast starts from (see
 * `contract/forecast.ts`): once a minute the board that leads the boards on
 * the store reads every task's counts, how many of its delayed and retrying
 * jobs fall due after the forecast's horizon, and its counters of the
 * minute, and keeps each task's sample (its backlog, the time and the jobs
 * the minute had finished by then) under that minute, in the store every
 * board reads (`<root>:board:backlog:<minute>`, expiring after
 * {@link BACKLOG_KEEP_MS}): three batches a minute, one command per task
 * each. Boards that do not lead read nothing and write nothing; a minute
 * whose read fails (Redis away) is simply missing, and the forecast says so.
 *
 * @module
 */

import {
  BACKLOG_KEEP_MS,
  BACKLOG_SAMPLE_MS,
  BACKLOG_SAMPLE_TASKS,
  backlogOf,
  finishedInMinute,
  FORECAST_HORIZON_MS,
  minuteOf,
} from "../contract/forecast.ts";
import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";
import type { BacklogSampleStore } from "../store/backlog_samples.ts";
import type { Timers } from "../timers.ts";

/** What {@link startBacklogSampler} needs. */
export interface BacklogSamplerOptions {
  /** Where the counts are read. */
  source: TaskSource;
  /** Where the samples are kept. */
  store: BacklogSampleStore;
  /** Only the leader samples. */
  leadership: Leadership;
  /** The timers the minute runs on. */
  timers: Timers;
  /** ms since the epoch: a sample's minute is read by every board. */
  clock: () => number;
}

/** A running sampler. */
export interface BacklogSampler {
  /** Takes one sample now if this board leads (what each minute does). */
  sample(): Promise<void>;
  /** Stops it. */
  close(): void;
}

/**
 * Starts sampling every {@link BACKLOG_SAMPLE_MS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startBacklogSampler } from "./backlog.ts";
 * import { Leadership } from "../leadership.ts";
 * import { createMemorySource } from "../source/memory/mod.ts";
 * import { systemTimers } from "../timers.ts";
 * const source = createMemorySource();
 * const sampler = startBacklogSampler({
 *   source,
 *   store: source.boardStore,
 *   leadership: new Leadership(null),
 *   timers: systemTimers,
 *   clock: () => 120_000,
 * });
 * await sampler.sample();
 * assert.deepEqual(await source.boardStore.readBacklogSamples("mail", [120_000]), [null]);
 * sampler.close();
 * await source.close();
 * ```
 */
export function startBacklogSampler(options: BacklogSamplerOptions): BacklogSampler {
  const { source, store, leadership, timers, clock } = options;
  let running: Promise<void> | null = null;
  const take = async () => {
    const tasks = (await source.listTasks()).slice(0, BACKLOG_SAMPLE_TASKS);
    const at = clock();
    const [stats, dueLater, counters] = await Promise.all([
      source.getStats(tasks),
      source.countDueAfter?.(tasks, at + FORECAST_HORIZON_MS),
      source.getThroughputByTask(tasks, { count: 1 }),
    ]);
    const samples = new Map([...stats].map(([task, counts]) => [task, {
      at,
      backlog: backlogOf(counts, dueLater?.get(task) ?? 0),
      finishedBefore: finishedInMinute(counters.get(task) ?? [], at),
    }]));
    await store.writeBacklogSample(minuteOf(at), samples, BACKLOG_KEEP_MS);
  };
  const sample = () => {
    if (!leadership.isLeading) return Promise.resolve();
    // A slow minute is not stacked on: the next one samples again.
    running ??= take().catch(() => {}).finally(() => running = null);
    return running;
  };
  const id = timers.setInterval(() => void sample(), BACKLOG_SAMPLE_MS);
  timers.unref(id);
  return { sample, close: () => timers.clearInterval(id) };
}
