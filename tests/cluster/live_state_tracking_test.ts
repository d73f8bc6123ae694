/**
 * Which pass wrote the live state last, served from the tracking
 * connection's cache (`src/source/redis/tracked_fields.ts`) on a Redis
 * Cluster and through a Sentinel set as on one Redis: a read with nothing
 * written since sends the node serving the hash no command, and another
 * board's pass is read once Redis's invalidation arrives. Commands counted
 * by that node.
 */

import { feedKeys } from "../../src/store/redis/feed.ts";
import { readsAsTheyChange } from "../helpers/live_state_tracking.ts";
import { startCluster, startSentinel } from "../helpers/redis_cluster.ts";

Deno.test("on a Redis Cluster, the live state is read with no command while unchanged", async () => {
  const cluster = await startCluster();
  try {
    await readsAsTheyChange(
      { cluster: { rootNodes: cluster.rootNodes } },
      await cluster.masterOf(feedKeys().live),
    );
  } finally {
    await cluster.stop();
  }
});

Deno.test("through a Sentinel set, the live state is read with no command while unchanged", async () => {
  const set = await startSentinel();
  try {
    await readsAsTheyChange(
      { sentinel: { name: set.name, sentinels: set.sentinels } },
      await set.masterPort(),
    );
  } finally {
    await set.stop();
  }
});
