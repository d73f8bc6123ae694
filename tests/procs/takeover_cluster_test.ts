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
  // 20,000 jobs, as the embedded boards', not takeover_test.ts's 50,000: what the cluster adds
  // (each command sent to the master that owns its keys) is the same at any scale, and
  // takeover_test.ts keeps the scale on one Redis. Not 5,000: the 50 steps' run could end before
  // the watching replica's first progress frame, the kill then after the end (seen twice under
  // load: 'done' !== 'running').
}, { cancelled: 20_000, killed: 20_000 });
