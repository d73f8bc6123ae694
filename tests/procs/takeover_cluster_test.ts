/**
 * The takeover tests of `takeover_test.ts` on a Redis Cluster of 3 masters:
 * three CLI board processes given its nodes, behind a round-robin proxy.
 */

import { startCluster } from "../helpers/redis_cluster.ts";
import { SHORT_LEASE, startBoardProcesses } from "../helpers/board_processes.ts";
import { pipeCommands } from "../helpers/redis_pipe.ts";
import { clusterAdapter } from "../helpers/taskora_cluster.ts";
import { failedJobCommands } from "../helpers/wire_writer.ts";
import { takeoverTests } from "./takeover_scenario.ts";

const cluster = await startCluster();
const nodes = cluster.rootNodes.map(({ host, port }) => `${host}:${port}`).join(",");
await takeoverTests("Redis Cluster", {
  startBoards: () =>
    startBoardProcesses({ count: 3, cliArgs: ["--redis-cluster", nodes, ...SHORT_LEASE] }),
  // Every key of a task is in its one slot: the whole load goes to that slot's master.
  loadFailed: async (task, count) =>
    pipeCommands(
      await cluster.masterOf(`taskora:{${task}}:failed`),
      failedJobCommands(task, count),
    ),
  adapter: () => clusterAdapter(cluster.rootNodes),
  stop: () => cluster.stop(),
  // 5,000 jobs, not takeover_test.ts's 50,000: 50 steps of BULK_BATCH still leave the kill
  // halfway a run of steps on either side, and what the cluster adds (each command sent to the
  // master that owns its keys) is the same for 5,000 jobs as for 50,000; takeover_test.ts keeps
  // the scale on one Redis.
}, { cancelled: 20_000, killed: 5_000 });
