/**
 * Throwaway Redis Cluster and Sentinel sets for tests, made of Debian's
 * `redis-server` on loopback ports, each node in a temporary directory of
 * its own, stopped by pid, and killed with the test's process if that goes
 * first (`bound_command.ts`).
 *
 * - {@link startCluster}: 3 masters and 3 replicas (`redis-cli --cluster
 *   create ... --cluster-replicas 1 --cluster-yes`), node timeout 1 s, so
 *   killing a master promotes its replica within a few seconds.
 * - {@link startSentinel}: a master, a replica and one sentinel (quorum 1,
 *   down-after 1 s), so killing the master promotes the replica.
 *
 * @module
 */

import { createCluster } from "redis";
import { boundCommand } from "./bound_command.ts";
import type { CommandSender } from "./fixture.ts";
import { serverArgs } from "./redis_server.ts";
import { redisCommand } from "./resp_command.ts";
import { waitFor } from "./wait_for.ts";

/** A running redis-server process of a test set. */
export interface TestNode {
  port: number;
  /** Kills it (SIGKILL, by its pid) and waits for it to exit. */
  kill(): Promise<void>;
  /** Stops it (SIGSTOP) until {@link resume}: it keeps its sockets and answers nothing. */
  pause(): void;
  /** Lets it run again (SIGCONT) after {@link pause}. */
  resume(): void;
}

function listening(port: number): boolean {
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * A free loopback port below 45000 whose cluster bus port (+10000) is free
 * too; `taken` keeps the ports of one set apart.
 */
function freePort(taken: Set<number>): number {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 25000);
    if (taken.has(port) || taken.has(port + 10000)) continue;
    if (listening(port) && listening(port + 10000)) {
      taken.add(port);
      taken.add(port + 10000);
      return port;
    }
  }
}

/**
 * Keeps a killed node's port taken until its set stops: a redis-server of
 * another test started on it meanwhile would be an empty Redis at the
 * address a board still knows (a client that reconnects there finds a
 * healthy master without the test's keys). It closes every connection, as
 * a dead node refuses them.
 */
function holdPort(port: number): Deno.Listener | null {
  let listener: Deno.Listener;
  try {
    listener = Deno.listen({ hostname: "127.0.0.1", port });
  } catch {
    return null; // taken already: nothing more to do
  }
  (async () => {
    try {
      for await (const conn of listener) conn.close();
    } catch {
      // closed
    }
  })();
  return listener;
}

/**
 * What every node of a set runs with beside {@link serverArgs}: a master
 * starts a replica's full sync at once. Redis 7's diskless sync waits
 * `repl-diskless-sync-delay` (5 s) for more replicas to sync in the same
 * transfer, so each set's start waited those 5 s (a sentinel set took 4.4-6 s
 * to start, 1-1.2 s without; a cluster 7-8.7 s, 3.6-3.9 s without).
 */
const SET_NODE_ARGS = ["--repl-diskless-sync-delay", "0"];

/**
 * Starts one redis-server with extra args (or a config file) on a free port,
 * in the folder `dirOf(port)` makes. Another process may bind the port
 * between the check and the start (test groups run at once): a server that
 * exits before it answers is started again on another port.
 */
async function spawnNode(
  taken: Set<number>,
  dirOf: (port: number) => Promise<string>,
  held: (Deno.Listener | null)[],
  args: string[],
): Promise<TestNode> {
  for (;;) {
    const port = freePort(taken);
    const child = boundCommand("redis-server", {
      args: [...args, ...SET_NODE_ARGS, ...serverArgs(port, await dirOf(port))],
      stdout: "null",
      stderr: "null",
    }).spawn();
    let exited = false;
    child.status.then(() => exited = true);
    const outcome = await waitFor(
      async () => exited ? "exited" : (await redisCommand(port, "PING")) === "PONG" ? "up" : null,
      { what: `redis-server on ${port}` },
    );
    if (outcome === "exited") continue;
    let gone = false;
    return {
      port,
      kill: async () => {
        if (gone) return;
        gone = true;
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
        await child.status;
        held.push(holdPort(port));
      },
      pause: () => {
        if (!gone) child.kill("SIGSTOP");
      },
      resume: () => {
        if (!gone) child.kill("SIGCONT");
      },
    };
  }
}

/** A running test cluster. */
export interface TestCluster {
  /** Every node, masters first as created. */
  nodes: TestNode[];
  /** `{ host, port }` of every node, for `createRedisSource({ cluster: { rootNodes } })`. */
  rootNodes: { host: string; port: number }[];
  /** Ports of the current masters, as the live nodes say. */
  masterPorts(): Promise<number[]>;
  /** The port of the master serving `key`'s slot. */
  masterOf(key: string): Promise<number>;
  /** A connected node-redis cluster client for test setup (closed by {@link stop}). */
  client(): Promise<ReturnType<typeof createCluster>>;
  /** Removes every key on every master. */
  flushAll(): Promise<void>;
  /**
   * Kills the master serving `key`; the returned promise resolves once its
   * replica serves the slot and the cluster is ok again.
   */
  killMaster(key: string): Promise<{ promoted: Promise<void> }>;
  /** Kills every node and removes their directories. */
  stop(): Promise<void>;
}

/** The port of a replica of the master on `port` (`CLUSTER REPLICAS` lines: `id ip:port@bus ...`). */
async function replicaOf(port: number): Promise<number> {
  const id = (await redisCommand(port, "CLUSTER", "MYID")).trim();
  const line = await waitFor(
    async () => (await redisCommand(port, "CLUSTER", "REPLICAS", id)).match(/:(\d+)@/),
    { what: `a replica of ${port}` },
  );
  return Number(line[1]);
}

/** Routes each raw command of a fixture writer by its key (the second argument). */
export function clusterSender(cluster: ReturnType<typeof createCluster>): CommandSender {
  return { sendCommand: (args) => cluster.sendCommand(args[1], false, args) };
}

/** Starts 3 masters and 3 replicas, and waits until the cluster is ok. */
export async function startCluster(): Promise<TestCluster> {
  const dir = await Deno.makeTempDir({ prefix: "queue-board-cluster-" });
  const taken = new Set<number>();
  const held: (Deno.Listener | null)[] = [];
  const nodeDir = async (port: number) => {
    await Deno.mkdir(`${dir}/${port}`, { recursive: true });
    return `${dir}/${port}`;
  };
  const nodes = await Promise.all(Array.from({ length: 6 }, async () => {
    return await spawnNode(taken, nodeDir, held, [
      "--cluster-enabled",
      "yes",
      "--cluster-config-file",
      "nodes.conf",
      // Not 1 s: a node starved that long on a loaded machine was voted down and the
      // cluster went CLUSTERDOWN mid-test (takeover_cluster_test, load 17-20).
      // killMaster forces its failover, so no test waits for this timeout.
      "--cluster-node-timeout",
      "5000",
    ]);
  }));
  const ports = nodes.map((node) => node.port);
  const created = await new Deno.Command("redis-cli", {
    args: [
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      "1",
      "--cluster-yes",
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!created.success) {
    throw new Error(`redis-cli --cluster create: ${new TextDecoder().decode(created.stderr)}`);
  }
  const alive = new Set(nodes);
  const live = () => [...alive];
  const ok = async () => {
    for (const node of live()) {
      if (!(await redisCommand(node.port, "CLUSTER", "INFO")).includes("cluster_state:ok")) {
        return false;
      }
    }
    return true;
  };
  await waitFor(ok, { what: "the cluster to be ok" });
  // Every node must see every replica before a failover can be asked of one.
  await waitFor(async () => {
    for (const node of live()) {
      const lines = (await redisCommand(node.port, "CLUSTER", "NODES")).split("\n");
      if (lines.filter((line) => line.includes("slave")).length < 3) return false;
    }
    return true;
  }, { what: "every node to know its peers" });

  // A replica that never synced refuses to take over (its data is too old).
  await waitFor(async () => {
    let synced = 0;
    for (const node of live()) {
      if (
        (await redisCommand(node.port, "INFO", "replication")).includes("master_link_status:up")
      ) {
        synced++;
      }
    }
    return synced === 3;
  }, { what: "every replica to be in sync" });

  const clients: ReturnType<typeof createCluster>[] = [];
  const masterPorts = async () => {
    const lines = (await redisCommand(live()[0].port, "CLUSTER", "NODES")).split("\n");
    return lines
      .filter((line) => line.includes("master") && !line.includes("fail"))
      .map((line) => Number(line.split(" ")[1].split(":")[1].split("@")[0]));
  };
  const masterOf = async (key: string) => {
    const slot = await redisCommand(live()[0].port, "CLUSTER", "KEYSLOT", key);
    const lines = (await redisCommand(live()[0].port, "CLUSTER", "NODES")).split("\n");
    for (const line of lines) {
      const fields = line.split(" ");
      if (!fields[2]?.includes("master") || fields[2].includes("fail")) continue;
      for (const range of fields.slice(8)) {
        const [from, to = from] = range.split("-").map(Number);
        if (Number(slot) >= from && Number(slot) <= to) {
          return Number(fields[1].split(":")[1].split("@")[0]);
        }
      }
    }
    throw new Error(`no master serves ${key}`);
  };
  const client = async () => {
    const cluster = createCluster({
      rootNodes: ports.map((port) => ({ socket: { host: "127.0.0.1", port } })),
    });
    cluster.on("error", () => {});
    cluster.on("node-error", () => {});
    await cluster.connect();
    clients.push(cluster);
    return cluster;
  };
  return {
    nodes,
    rootNodes: ports.map((port) => ({ host: "127.0.0.1", port })),
    masterPorts,
    masterOf,
    client,
    flushAll: async () => {
      for (const port of await masterPorts()) await redisCommand(port, "FLUSHALL");
    },
    killMaster: async (key) => {
      const port = await masterOf(key);
      const node = nodes.find((n) => n.port === port)!;
      const replica = await replicaOf(port);
      alive.delete(node);
      await node.kill();
      // What an operator does for a master known dead: the replica takes over now,
      // with the other masters' votes, not after the node timeout.
      await redisCommand(replica, "CLUSTER", "FAILOVER", "FORCE");
      const promoted = waitFor(async () => (await masterOf(key)) !== port && await ok(), {
        what: `a replica to take over from ${port}`,
      }).then(() => {});
      return { promoted };
    },
    stop: async () => {
      for (const cluster of clients) cluster.destroy();
      await Promise.all(nodes.map((node) => node.kill()));
      for (const listener of held) listener?.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A running master, replica and sentinel. */
export interface TestSentinel {
  /** The master's name the sentinel monitors. */
  name: string;
  /** `{ host, port }` of the sentinel. */
  sentinels: { host: string; port: number }[];
  master: TestNode;
  replica: TestNode;
  /** The port of the master the sentinel names now. */
  masterPort(): Promise<number>;
  /** Kills the master (if still running) and waits until the sentinel names the replica. */
  failOver(): Promise<void>;
  /** Kills every process and removes their directories. */
  stop(): Promise<void>;
}

/** Starts a master, a replica of it and a sentinel monitoring them. */
export async function startSentinel(name = "queue-board"): Promise<TestSentinel> {
  const dir = await Deno.makeTempDir({ prefix: "queue-board-sentinel-" });
  const taken = new Set<number>();
  const held: (Deno.Listener | null)[] = [];
  for (const sub of ["master", "replica", "sentinel"]) await Deno.mkdir(`${dir}/${sub}`);
  const master = await spawnNode(taken, () => Promise.resolve(`${dir}/master`), held, []);
  const masterPort = master.port;
  const replica = await spawnNode(taken, () => Promise.resolve(`${dir}/replica`), held, [
    "--replicaof",
    "127.0.0.1",
    String(masterPort),
  ]);
  const replicaPort = replica.port;
  const config = `${dir}/sentinel/sentinel.conf`;
  await Deno.writeTextFile(
    config,
    [
      `sentinel monitor ${name} 127.0.0.1 ${masterPort} 1`,
      `sentinel down-after-milliseconds ${name} 1000`,
      `sentinel failover-timeout ${name} 3000`,
      "",
    ].join("\n"),
  );
  const sentinel = await spawnNode(taken, () => Promise.resolve(`${dir}/sentinel`), held, [
    config,
    "--sentinel",
  ]);
  const sentinelPort = sentinel.port;
  const masterNow = async () => {
    const reply = await redisCommand(sentinelPort, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name);
    return Number(reply.split("\n")[1]);
  };
  await waitFor(
    async () =>
      (await redisCommand(replicaPort, "INFO", "replication")).includes("master_link_status:up"),
    { what: "the replica to be in sync" },
  );
  // Known is not enough: a replica the sentinel has not connected to yet ("slave,disconnected",
  // as it is just after the replica's sync) is no candidate, and a failover then fails.
  await waitFor(async () => {
    const fields = (await redisCommand(sentinelPort, "SENTINEL", "REPLICAS", name)).split("\n");
    const field = (key: string) => fields[fields.indexOf(key) + 1];
    return field("port") === String(replicaPort) && field("flags") === "slave" &&
      field("master-link-status") === "ok";
  }, { what: "the sentinel to be connected to the replica, in sync" });
  return {
    name,
    sentinels: [{ host: "127.0.0.1", port: sentinelPort }],
    master,
    replica,
    masterPort: masterNow,
    failOver: async () => {
      await master.kill();
      await waitFor(async () =>
        (await masterNow()) === replicaPort &&
        (await redisCommand(replicaPort, "ROLE")).startsWith("master"), {
        what: "the sentinel to promote the replica",
        // A hung-test guard, not a bound on the election: on a loaded machine it takes long.
        limitMs: 90_000,
      });
    },
    stop: async () => {
      await Promise.all([sentinel.kill(), replica.kill(), master.kill()]);
      for (const listener of held) listener?.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
