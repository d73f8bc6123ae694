/**
 * Reading the live state the leader keeps (see `../store/feed.ts`): what
 * every reader on every replica serves from while it is fresh, at most one
 * stats interval old, instead of reading each task's keys. A page of the
 * overview reads the index (`asOf`, every task's counts, verdict and sort
 * keys) and the rows of the tasks it shows: two store reads, whatever the
 * number of tasks. A stale or missing state answers null: the reader then
 * reads directly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFreshSummary } from "./live_read.ts";
 * import { MemoryFeedStore } from "../store/memory/feed.ts";
 *
 * const store = new MemoryFeedStore(() => 0);
 * const index = { tasks: [], totals: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, cancelled: 0, expired: 0 }, healthCounts: { critical: 0, warning: 0, healthy: 0, idle: 0 } };
 * await store.writeLiveState({ asOf: 1_000, index });
 * assert.equal((await readFreshSummary(store, 3_000, 3_000))?.asOf, 1_000);
 * assert.equal(await readFreshSummary(store, 5_000, 3_000), null, "older than the interval");
 * ```
 *
 * @module
 */

import { queueLatency } from "../contract/latency.ts";
import type { OverviewResponse, OverviewTask } from "../contract/overview.ts";
import { groupsOf, selectTasks, type TaskListQuery } from "../contract/task_list.ts";
import type { FeedStore, LiveRow, LiveSummary } from "../store/feed.ts";
import { COUNTING_RETRY_S } from "../contract/errors.ts";
import { BoardError } from "../errors.ts";
import type { ChangeFeed } from "./change_feed.ts";

/**
 * How long a reader of a board whose feed is starting waits for its first
 * pass, ms: one lease period. Past it the reader is answered 503
 * {@link counting} rather than read every task beside the pass: that read
 * takes about as long as the pass and doubles what Redis runs (at 1,000
 * tasks on a loaded machine a 2 s wait gave up and the first page ran 58,842
 * commands; with 10 s, a pass that outlasted it still read every task twice).
 */
export const FIRST_PASS_WAIT_MS = 10_000;

/**
 * How old a live state a stats frame still sends, ms, saying its age (the
 * frame's `at` is the state's `asOf`), rather than read every task's counts
 * itself: one lease period, within which the leader that keeps it holds the
 * lease (a pass that takes longer than a stats interval on a loaded machine
 * or at a first start); past it, the leader is presumed gone. Before, a
 * state over one interval old made a frame read every task (9,000 commands
 * at 1,000 tasks, `tests/bench/open_browser.ts`), no fresher than the pass
 * under way.
 */
export const LIVE_FRAME_MAX_AGE_MS = 10_000;

/** The 503 of a reader whose board's first pass still runs past {@link FIRST_PASS_WAIT_MS}. */
export function counting(): BoardError {
  return new BoardError(
    "COUNTING",
    "The board is reading every task for the first time: ask again in a few seconds",
    { retryAfterS: COUNTING_RETRY_S },
  );
}

/**
 * What a reader of every task (an overview, a scrape) reads: from the live
 * state at most `maxAgeMs` old, through `read` (null: none that fresh). It
 * notes the feed's need, so the leader keeps the state for the next
 * readers; and when none is fresh but the feed runs (or starts) on this
 * board, it waits once, at most {@link FIRST_PASS_WAIT_MS}, for the feed's
 * first pass and reads again, taking what that feed wrote however long its
 * pass took: the pass reads every task once, the request none. (A first
 * pass at 1,000 tasks on a loaded machine took longer than the stats
 * interval, so its state was stale once written and the page read every
 * task again.) Throws {@link counting} when that pass outlasts the wait.
 * Null: read directly (no feed, a follower whose leader has no fresh state
 * yet, a first pass that ended without writing one).
 */
export async function readNeededLive<T>(
  feed: ChangeFeed | null,
  maxAgeMs: number,
  read: (maxAgeMs: number) => Promise<T | null>,
): Promise<T | null> {
  feed?.need();
  const live = await read(maxAgeMs);
  if (live !== null || feed === null) return live;
  const running = await feed.firstPass(FIRST_PASS_WAIT_MS);
  if (running === null) return null;
  if (!running.ended) throw counting();
  return await read(Math.max(maxAgeMs, running.ageMs));
}

/** `summary` when it is at most `maxAgeMs` old at `now` (ms); else null. */
function fresh<T extends LiveSummary>(summary: T | null, now: number, maxAgeMs: number): T | null {
  return summary !== null && now - summary.asOf <= maxAgeMs ? summary : null;
}

/** The live state's summary when it is at most `maxAgeMs` old at `now` (ms); else null. */
export async function readFreshSummary(
  store: FeedStore,
  now: number,
  maxAgeMs: number,
): Promise<LiveSummary | null> {
  return fresh(await store.readLiveSummary(), now, maxAgeMs);
}

/** Whether `query` shows every task: no filter, no page. */
function showsEvery({ q, health, prefix, limit, offset }: TaskListQuery): boolean {
  return q === undefined && health === undefined && prefix === undefined &&
    limit === undefined && !offset;
}

/** A row as the overview shows it: its latency at `now` (ms), from the heads read with its counts. */
export function overviewTaskOf(row: LiveRow, now: number): OverviewTask {
  const { name, stats, retryingAsOf, health, heads, rate } = row;
  return { name, stats, retryingAsOf, health, latency: queueLatency(heads, now), rate };
}

/** What a page of the overview says of the tasks, from the live state. */
export type LivePage = Omit<OverviewResponse, "redis" | "uptime">;

/**
 * The overview's tasks for `query` (with `group=prefix`, the groups too)
 * from the live state when it is fresh (and `accept` takes its `asOf`): one
 * read of the index, one of the page's rows; every task's, one read of the
 * whole state (a round trip less, and the rows of the same pass as the
 * index). Null when it is stale, missing, or lost a row of the page (a
 * leader dropping a task meanwhile): the caller reads directly.
 */
export async function readLivePage(
  store: FeedStore,
  query: TaskListQuery & { group?: "prefix" },
  now: number,
  maxAgeMs: number,
  accept: (asOf: number) => boolean = () => true,
): Promise<LivePage | null> {
  const { group, ...list } = query;
  const whole = showsEvery(list) ? fresh(await store.readLiveState(), now, maxAgeMs) : null;
  const summary = showsEvery(list) ? whole : await readFreshSummary(store, now, maxAgeMs);
  if (summary === null || !accept(summary.asOf)) return null;
  const { tasks: every, totals, healthCounts } = summary.index;
  const { tasks: page, matched } = selectTasks(every, list);
  const rows = whole
    ? page.map((task) => whole.rows.get(task.name) ?? null)
    : await store.readLiveRows(page.map((task) => task.name));
  if (rows.some((row) => row === null)) return null;
  const answer: LivePage = {
    tasks: rows.map((row) => overviewTaskOf(row!, now)),
    matched: matched.length,
    totals,
    healthCounts,
    asOf: summary.asOf,
  };
  if (group === "prefix") {
    answer.groups = groupsOf(selectTasks(every, { q: list.q, health: list.health }).matched);
  }
  return answer;
}
