/**
 * The backlog samples the drain forecast starts from (see
 * `contract/forecast.ts`): once a minute the board that leads the boards on
 * the store takes every task's backlog (its counts, less its delayed and
 * retrying jobs due after the forecast's horizon) and what it finished in
 * the minute so far, and keeps each task's sample under that minute, in the
 * store every board reads (`<root>:board:backlog:<minute>`, expiring after
 * {@link BACKLOG_KEEP_MS}). Boards that do not lead read nothing and write
 * nothing; a minute whose read fails (Redis away) is simply missing, and
 * the forecast says so.
 *
 * Cost follows change: while the leader's live state is at most a sample
 * period old (the change feed runs, or ran within the minute: a browser, an
 * overview, a scrape), the counts and the minute's finished jobs come from
 * it, as of its `asOf` (two HMGETs: the index and the rows), and only the
 * tasks with delayed or retrying jobs are read, one ZCOUNT each (what is due
 * after the horizon moves with the clock, not with events), but for those
 * a minute found none due after it and whose row was not read since. Else the counts,
 * the ZCOUNT and the counters of every task are read directly (three
 * batches, one command per task each), and only while someone looks at the
 * board ({@link TaskSource.watched}): an idle board takes no sample. Either
 * way its reads are the board's own ({@link unwatched}): they keep no idle
 * board watched.
 *
 * @module
 */

import {
  BACKLOG_KEEP_MS,
  BACKLOG_SAMPLE_MS,
  BACKLOG_SAMPLE_TASKS,
  backlogOf,
  type BacklogSample,
  finishedInMinute,
  FORECAST_HORIZON_MS,
  minuteOf,
} from "../contract/forecast.ts";
import { readFreshSummary } from "../feed/live_read.ts";
import { rateBucketAt } from "../feed/live_rate.ts";
import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";
import { unwatched } from "../source/unwatched.ts";
import type { BacklogSampleStore } from "../store/backlog_samples.ts";
import type { ChangeFeedStore, FeedStore } from "../store/feed.ts";
import type { Timers } from "../timers.ts";

/** What {@link startBacklogSampler} needs. */
export interface BacklogSamplerOptions {
  /** Where the counts are read. */
  source: TaskSource;
  /** Where the samples are kept, and the live state they may be taken from. */
  store: BacklogSampleStore & ChangeFeedStore;
  /** Only the leader samples. */
  leadership: Leadership;
  /** The timers the minute runs on. */
  timers: Timers;
  /** ms since the epoch: a sample's minute is read by every board. */
  clock: () => number;
}

/**
 * How old a live state the sampler takes as the sample of its `asOf`'s
 * minute, ms: one sample period. An overview's need keeps the feed 30 s and
 * its request keeps the board watched 60 s, so a minute's sample may come
 * after the feed's last pass; before, taking only a state one stats
 * interval old, that sample read every task directly (277 commands at 20
 * tasks, most of an idle board's first minute in `tests/bench/idle_board.ts`;
 * 3,400 at 200 tasks).
 */
export const BACKLOG_LIVE_MAX_AGE_MS = BACKLOG_SAMPLE_MS;

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
  const noneLater: NoneDueLater = new Map();
  const take = async () => {
    const now = clock();
    const taken =
      await fromLiveState(source, store.feed, now, BACKLOG_LIVE_MAX_AGE_MS, noneLater) ??
        // Every task read directly: for someone who looks at the board, not for an idle one.
        (source.watched === false ? null : await readDirectly(source, now));
    if (taken === null) return;
    await store.writeBacklogSample(minuteOf(taken.at), taken.samples, BACKLOG_KEEP_MS);
  };
  const sample = () => {
    if (!leadership.isLeading) return Promise.resolve();
    // A slow minute is not stacked on: the next one samples again.
    running ??= unwatched(take).catch(() => {}).finally(() => running = null);
    return running;
  };
  const id = timers.setInterval(() => void sample(), BACKLOG_SAMPLE_MS);
  timers.unref(id);
  return { sample, close: () => timers.clearInterval(id) };
}

/** What one minute took: each task's sample, as of `at`. */
interface Taken {
  at: number;
  samples: Map<string, BacklogSample>;
}

/** Each task's sample at `at`, its counts and counters read directly. */
async function readDirectly(source: TaskSource, at: number): Promise<Taken> {
  const tasks = (await source.listTasks()).slice(0, BACKLOG_SAMPLE_TASKS);
  const [stats, dueLater, counters] = await Promise.all([
    source.getStats(tasks),
    source.readBacklog?.({ kind: "dueAfter", tasks, at: at + FORECAST_HORIZON_MS }),
    source.getThroughputByTask(tasks, { count: 1 }),
  ]);
  const samples = new Map([...stats].map(([task, counts]) => [task, {
    at,
    backlog: backlogOf(counts, dueLater?.get(task) ?? 0),
    finishedBefore: finishedInMinute(counters.get(task) ?? [], at),
  }]));
  return { at, samples };
}

/**
 * The tasks a sample found none of whose delayed or retrying jobs falls due
 * after the horizon, with their row's `readAt` then. While a row is not read
 * again (no event moved its task, the sweep found nothing), its delayed set
 * gained no job, and the horizon only moves on: none falls due after it
 * still, so the next minutes count none without a ZCOUNT.
 */
type NoneDueLater = Map<string, number>;

/**
 * Each task's sample from the live state, as of its `asOf`, when it is at
 * most `maxAgeMs` old at `now`; null when it is not (or the store keeps
 * none). Reads the index and the rows, and the due-later count of only the
 * tasks with delayed or retrying jobs that `noneLater` (updated) does not
 * hold unchanged.
 */
async function fromLiveState(
  source: TaskSource,
  feed: FeedStore | null,
  now: number,
  maxAgeMs: number,
  noneLater: NoneDueLater,
): Promise<Taken | null> {
  if (!feed) return null;
  const summary = await readFreshSummary(feed, now, maxAgeMs);
  if (summary === null) return null;
  const at = summary.asOf;
  const entries = summary.index.tasks.slice(0, BACKLOG_SAMPLE_TASKS);
  const rows = await feed.readLiveRows(entries.map(({ name }) => name));
  const held = entries.filter(({ name, stats }, i) =>
    stats.delayed + stats.retrying > 0 &&
    (rows[i] === null || noneLater.get(name) !== rows[i]!.readAt)
  ).map(({ name }) => name);
  const dueLater = held.length > 0
    ? await source.readBacklog?.({ kind: "dueAfter", tasks: held, at: at + FORECAST_HORIZON_MS })
    : undefined;
  noneLater.clear();
  const samples = new Map<string, BacklogSample>();
  entries.forEach(({ name, stats }, i) => {
    const row = rows[i];
    if (row === null) return;
    const later = dueLater?.get(name) ?? 0;
    if (later === 0) noneLater.set(name, row.readAt);
    samples.set(name, {
      at,
      backlog: backlogOf(stats, later),
      finishedBefore: finishedInMinute([rateBucketAt(row.rate, minuteOf(at))], at),
    });
  });
  return { at, samples };
}
