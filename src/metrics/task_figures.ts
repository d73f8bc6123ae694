/**
 * What a scrape shows of each task (its counts, its queue heads and its
 * last closed minute) and when that was true. From the live state the
 * leader keeps while it is at most one stats interval old: its index and
 * every task's row, two store reads whatever the number of tasks, on any
 * board; on the leader whose feed a scrape starts, from its first pass.
 * Else read directly: the counts and heads in one pipelined batch, the last
 * two minutes in another, O(tasks).
 *
 * @module
 */

import { minuteOf } from "../contract/forecast.ts";
import type { QueueHeads } from "../contract/health.ts";
import type { QueueStats } from "../contract/states.ts";
import type { ThroughputBucket } from "../contract/throughput.ts";
import type { ChangeFeed } from "../feed/change_feed.ts";
import { readFreshSummary, readNeededLive } from "../feed/live_read.ts";
import { rateBucketAt } from "../feed/live_rate.ts";
import type { TaskSource } from "../source/types.ts";
import type { FeedStore } from "../store/feed.ts";

/** What a scrape shows of one task. */
export interface ScrapedTask {
  stats: QueueStats;
  heads: QueueHeads;
  /** The last closed minute's finished jobs: the current one is still being counted into. */
  closed: ThroughputBucket;
}

/** Every task's figures, and when they were true (ms since the epoch). */
export interface ScrapedTasks {
  asOf: number;
  tasks: Map<string, ScrapedTask>;
}

/** From the live state of `feed` when at most `maxAgeMs` old at `now`, else null. */
async function readLive(
  feed: FeedStore,
  now: number,
  maxAgeMs: number,
): Promise<ScrapedTasks | null> {
  const summary = await readFreshSummary(feed, now, maxAgeMs);
  if (summary === null) return null;
  const rows = await feed.readLiveRows(summary.index.tasks.map((task) => task.name));
  const tasks = new Map<string, ScrapedTask>();
  const closedMinute = minuteOf(now) - 60_000;
  for (const row of rows) {
    // A leader dropping a task meanwhile: its index and rows differ, read directly.
    if (row === null) return null;
    const { name, stats, heads, rate } = row;
    tasks.set(name, { stats, heads, closed: rateBucketAt(rate, closedMinute) });
  }
  return { asOf: summary.asOf, tasks };
}

async function readDirect(source: TaskSource, now: number): Promise<ScrapedTasks> {
  const names = await source.listTasks();
  const [snapshots, recent] = await Promise.all([
    source.getQueueSnapshots(names),
    source.getThroughputByTask(names, { count: 2 }),
  ]);
  const tasks = new Map<string, ScrapedTask>();
  for (const task of names) {
    const { stats, heads } = snapshots.get(task)!;
    tasks.set(task, { stats, heads, closed: recent.get(task)![0] });
  }
  return { asOf: now, tasks };
}

/**
 * Every task's figures as of `clock()` (ms since the epoch): the live
 * state's, when `store` (the board store's feed) keeps one at most
 * `liveMaxAgeMs` old, or once the first pass of `feed` ends when it starts
 * on this board (see
 * `readNeededLive`); else read directly.
 */
export async function readScrapedTasks(
  source: TaskSource,
  store: FeedStore | null,
  feed: ChangeFeed | null,
  clock: () => number,
  liveMaxAgeMs: number,
): Promise<ScrapedTasks> {
  const live = !store
    ? null
    : await readNeededLive(feed, liveMaxAgeMs, (maxAgeMs) => readLive(store, clock(), maxAgeMs));
  return live ?? await readDirect(source, clock());
}
