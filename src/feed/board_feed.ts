/**
 * The change feed of one board as the board composes it: the feed and its
 * consumers (the live state; the history recorder joins here), or none when
 * the source keeps no feed store.
 *
 * @module
 */

import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";
import type { Timers } from "../timers.ts";
import { ChangeFeed } from "./change_feed.ts";
import { LiveStateKeeper } from "./live_state.ts";

/** What {@link createBoardFeed} needs. */
export interface BoardFeedOptions {
  /** The board's source; its `feed` store keeps the ids and the live state. */
  source: TaskSource;
  /** The board's one leadership. */
  leadership: Leadership;
  /** The board's timers. */
  timers: Timers;
  /** ms since the epoch, moving with `timers`. */
  clock: () => number;
  /** The board's health limits. */
  health: { maxWaitMs: number; maxIdleMs: number };
  /** Whether a consumer on this board always needs the feed (alert rules). */
  alwaysNeeded: boolean;
}

/** The board's change feed with the live state as its consumer; null without a feed store. */
export function createBoardFeed(options: BoardFeedOptions): ChangeFeed | null {
  const { source, leadership, timers, clock, health, alwaysNeeded } = options;
  const store = source.feed;
  if (!store) return null;
  const live = new LiveStateKeeper({ source, store, clock, health });
  return new ChangeFeed({ source, store, leadership, timers, consumers: [live], alwaysNeeded });
}
