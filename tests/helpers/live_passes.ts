/**
 * Driving the leader's live state pass by pass on fake timers, against a
 * real Redis: each tick is one pass period, and Redis answers in its own
 * time, so each look is guarded by `waitFor`.
 *
 * @module
 */

import type { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { LiveSummary } from "../../src/store/feed.ts";
import type { FakeTimers } from "./fake_timers.ts";
import { waitFor } from "./wait_for.ts";

/** Ticks pass by pass until the live state holds what `ready` looks for; returns that state. */
export async function passUntil(
  timers: FakeTimers,
  source: RedisTaskSource,
  ready: (summary: LiveSummary | null) => unknown,
  what: string,
): Promise<LiveSummary> {
  return await waitFor(async () => {
    await timers.tick(1_000);
    const summary = await source.boardStore.feed.readLiveSummary();
    return ready(summary) ? summary : null;
  }, { what });
}
