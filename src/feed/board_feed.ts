/**
 * The change feed of one board as the board composes it: the feed and its
 * consumers (the live state, and the history recorder when the `history`
 * option is on), or none when the board's store keeps no feed.
 *
 * @module
 */

import { createRedactor } from "../contract/redact.ts";
import { createRecorder } from "../history/recorder.ts";
import type { HistoryStore } from "../history/store.ts";
import type { Leadership } from "../leadership.ts";
import type { ResolvedOptions } from "../options.ts";
import type { TaskSource } from "../source/types.ts";
import type { ChangeFeedStore } from "../store/feed.ts";
import type { JobHistoryStore } from "../store/history.ts";
import { createPostgresHistoryStore } from "../store/postgres/history.ts";
import type { Timers } from "../timers.ts";
import { ChangeFeed, type FeedConsumer } from "./change_feed.ts";
import { HistoryRecording } from "./history_recording.ts";
import { LiveStateKeeper } from "./live_state.ts";

/** What {@link createBoardFeed} needs. */
export interface BoardFeedOptions {
  /** The board's source: the events the feed follows, the fields the history records. */
  source: TaskSource;
  /** The board's store: its `feed` keeps the ids and the live state, its `history` the jobs. */
  store: ChangeFeedStore & JobHistoryStore;
  /** The board's one leadership. */
  leadership: Leadership;
  /** The board's timers. */
  timers: Timers;
  /** ms since the epoch, moving with `timers`. */
  clock: () => number;
  /** The board's health limits. */
  health: { maxWaitMs: number; maxIdleMs: number };
  /** The `history` option (null: off) and the keys `redact` masks in stored payloads. */
  history: ResolvedOptions["history"];
  /** The `redact` option. */
  redact: readonly string[];
  /** The `statsInterval` option, ms: an open browser notes the feed's need once per interval. */
  statsIntervalMs: number;
}

/** How long one need of the feed lasts at the least, ms: the last browser gone, it runs that long. */
const LEAST_NEED_MS = 30_000;

/**
 * How long one need of the feed lasts on a board whose open browsers note
 * it once every `statsIntervalMs`: two intervals, so that it outlasts the
 * wait for the next frame (and a frame late behind a slow read). At one
 * frame a minute, a 30 s need lapsed between frames with a browser open:
 * the feed stopped, forgot its live state, and the next frame or page
 * restarted it with a read of every task (12,284 Redis commands at 1,011
 * tasks, see `docs/measurements.md`).
 */
function needMsFor(statsIntervalMs: number): number {
  return Math.max(LEAST_NEED_MS, 2 * statsIntervalMs);
}

/**
 * How old a busy task's last read is before the live state reads it again,
 * ms (see `live_state.ts`): half the stats interval. Every reader takes the
 * state while its `asOf` is at most one interval old (the overview,
 * `/metrics` and the alerts; a stats frame up to a lease period): the `asOf`
 * a pass writes is then at most half an interval old, and the other half
 * covers the time until the next pass has written (a pass period, 1 s, and
 * the pass, whose duration the keeper counts in). At the default 3 s a task
 * that moves every second is read every other pass, and the half-second
 * slack either side of the 1 s pass period keeps that so when a timer fires
 * late; at 2 s or less it is read at every pass, as before.
 */
function rereadMsFor(statsIntervalMs: number): number {
  return statsIntervalMs / 2;
}

/** The board's feed and, when it records, the history and its recorder's state. */
export interface BoardFeed {
  /** The change feed. */
  feed: ChangeFeed;
  /** The live state it keeps (on the leader). */
  live: LiveStateKeeper;
  /** The history store and its recording; null with `history: false` or a source that reads no job fields. */
  history: { store: HistoryStore; recording: HistoryRecording } | null;
}

/** The history the board records into, or null when it records none. */
function historyOf(options: BoardFeedOptions): BoardFeed["history"] {
  const { source, history, redact, clock } = options;
  const readJobFields = source.readJobFields?.bind(source);
  if (history === null || !readJobFields) return null;
  const store = history.postgres === null
    ? options.store.history(history.limits)
    : createPostgresHistoryStore({ url: history.postgres, limits: history.limits });
  const recorder = createRecorder({
    store,
    read: readJobFields,
    redact: history.payloads ? createRedactor(redact) : undefined,
  });
  return { store, recording: new HistoryRecording(recorder, store, clock) };
}

/** The board's change feed with its consumers; null when the board's store keeps no feed. */
export function createBoardFeed(options: BoardFeedOptions): BoardFeed | null {
  const { source, leadership, timers, clock, health, statsIntervalMs } = options;
  const store = options.store.feed;
  if (!store) return null;
  const history = historyOf(options);
  const live = new LiveStateKeeper({
    source,
    store,
    clock,
    health,
    rereadMs: rereadMsFor(statsIntervalMs),
  });
  const consumers: FeedConsumer[] = [live];
  if (history) consumers.push(history.recording);
  const feed = new ChangeFeed({
    source,
    store,
    leadership,
    timers,
    consumers,
    // The recorder needs every event, watched or not, and what taskora held before it started.
    alwaysNeeded: history !== null,
    backfill: history !== null,
    needMs: needMsFor(statsIntervalMs),
  });
  return { feed, live, history };
}
