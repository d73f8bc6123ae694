/**
 * `listSchedules` served from the tracking connection's cache on a Redis
 * Cluster (the schedules hash and the next-run set may sit on two masters)
 * and through a Sentinel set as on one Redis: nothing sent while nothing
 * changed, another connection's change shown once Redis says, the source's
 * own pause at once. Commands counted by the nodes.
 */

import { schedulesAsTheyChange } from "../helpers/schedules_tracking.ts";
import { startCluster, startSentinel } from "../helpers/redis_cluster.ts";

Deno.test("on a Redis Cluster, the schedules are listed with no command while unchanged", async () => {
  const cluster = await startCluster();
  try {
    await schedulesAsTheyChange(
      { cluster: { rootNodes: cluster.rootNodes } },
      await cluster.masterPorts(),
    );
  } finally {
    await cluster.stop();
  }
});

Deno.test("through a Sentinel set, the schedules are listed with no command while unchanged", async () => {
  const set = await startSentinel();
  try {
    await schedulesAsTheyChange(
      { sentinel: { name: set.name, sentinels: set.sentinels } },
      [await set.masterPort()],
    );
  } finally {
    await set.stop();
  }
});
