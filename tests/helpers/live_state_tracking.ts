/**
 * Two boards reading and writing the live state through the tracking
 * connection's cache (`src/source/redis/tracked_fields.ts`), on one Redis,
 * a Cluster or a Sentinel set alike.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ConnectionOptions } from "../../src/source/redis/client.ts";
import { createRedisBoardStore } from "../../src/store/redis/mod.ts";
import type { FeedStore } from "../../src/store/feed.ts";
import { indexOf, rowOf } from "../contract/feed_store_contract.ts";
import { commandsOf } from "./command_stats.ts";
import { connectClient } from "./redis_server.ts";
import { waitFor } from "./wait_for.ts";

/** Two tasks' rows, as a pass writes them. */
export const rows = [rowOf("a", 1, "healthy"), rowOf("b", 2, "critical")];

/**
 * Two boards' stores on `where`: a read with nothing written since sends
 * the node on `port` (the one serving the hash) no command; the other
 * board's pass is read once Redis's invalidation arrives; the writer's own
 * at once.
 */
export async function readsAsTheyChange(where: ConnectionOptions, port: number): Promise<void> {
  const writer = createRedisBoardStore({ ...where, commandTimeoutMs: 10_000 });
  const reader = createRedisBoardStore({ ...where, commandTimeoutMs: 10_000 });
  const node = await connectClient(`redis://127.0.0.1:${port}`);
  try {
    const write = writer.feed as FeedStore;
    const feed = reader.feed as FeedStore;
    await write.writeLiveState({ asOf: 1_000, index: indexOf(rows), rows });
    assert.equal((await feed.readLiveState())?.asOf, 1_000);
    // A cluster client may connect a node again while the new cluster's slot map settles, which
    // drops the cache (rightly): the wait is for a read that sends nothing, which never comes
    // without the cache (`tests/store/redis_live_state_test.ts` asks it of the first on one Redis).
    await waitFor(
      async () => (await commandsOf(node, () => feed.readLiveState())).size === 0,
      { what: "a read with no pass since that sends the node no command" },
    );

    const changed = rowOf("b", 0, "healthy");
    await write.writeLiveState({
      asOf: 2_000,
      index: indexOf([rows[0], changed]),
      rows: [changed],
    });
    const next = await waitFor(async () => {
      const state = await feed.readLiveState();
      return state?.asOf === 2_000 && state;
    }, { what: "Redis's invalidation to reach the reader" });
    assert.deepEqual(next.rows.get("b"), changed);
    // The writer's own pass is read at once: its cache of the hash dropped with the write.
    assert.equal((await write.readLiveState())?.asOf, 2_000);
    await write.writeLiveState({ asOf: 3_000 });
    assert.equal((await write.readLiveState())?.asOf, 3_000);
  } finally {
    await node.close();
    await reader.close();
    await writer.close();
  }
}
