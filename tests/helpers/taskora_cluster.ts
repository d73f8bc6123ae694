/**
 * Real taskora (`../shared/taskora/taskora.js`) writing to a Redis Cluster.
 *
 * taskora's `redisAdapter()` takes a URL, ioredis options or an ioredis
 * `Redis` instance (an ioredis `Cluster` would be wrapped in a new `Redis`),
 * and the bundle exports no ioredis class to build a Cluster with. taskora's
 * backend itself only needs a small driver (`command`, `pipeline`,
 * `evalSha`, `blockingZPopMin`, `subscribe`, `duplicate`, ...): this hands
 * the real backend (its Lua scripts, workers, wire format) a driver over a
 * node-redis cluster client, which routes each command by its first key's
 * slot as ioredis Cluster does. The backend class is taken from an adapter
 * made for a URL (lazy, never connected).
 *
 * @module
 */

import { createCluster } from "redis";
import { redisAdapter } from "../../../shared/taskora/taskora.js";

type Adapter = ReturnType<typeof redisAdapter>;
type Cluster = ReturnType<typeof createCluster>;
type Node = { host: string; port: number };

/** The first key of a command taskora sends: after EVAL/EVALSHA's key count, else the first argument. */
function keyOf(args: string[]): string | undefined {
  const name = args[0].toUpperCase();
  if (name === "EVALSHA" || name === "EVAL") return Number(args[2]) > 0 ? args[3] : undefined;
  if (name === "XREAD") return args[args.indexOf("STREAMS") + 1];
  return args[1];
}

/** taskora's Redis driver contract, over a node-redis cluster client. */
class ClusterDriver {
  readonly #nodes: Node[];
  readonly cluster: Cluster;

  constructor(nodes: Node[]) {
    this.#nodes = nodes;
    this.cluster = createCluster({
      rootNodes: nodes.map((node) => ({ socket: node })),
    });
    this.cluster.on("error", () => {});
    this.cluster.on("node-error", () => {});
  }

  get raw(): Cluster {
    return this.cluster;
  }

  command(name: string, args: unknown[]): Promise<unknown> {
    const argv = [name.toUpperCase(), ...args.map(String)];
    return this.cluster.sendCommand(keyOf(argv), false, argv);
  }

  pipeline() {
    const queued: [string, unknown[]][] = [];
    const builder = {
      add: (name: string, args: unknown[]) => {
        queued.push([name, args]);
        return builder;
      },
      exec: () =>
        Promise.all(
          queued.map(([name, args]) =>
            this.command(name, args).then((reply) => [null, reply], (error) => [error, null])
          ),
        ),
    };
    return builder;
  }

  /** Loads the script on every master (a script call runs on the master of its first key). */
  async scriptLoad(source: string): Promise<string> {
    const shas = await Promise.all(this.cluster.masters.map(async (master) => {
      const client = await this.cluster.nodeClient(master);
      return await client.sendCommand(["SCRIPT", "LOAD", source]) as string;
    }));
    return shas[0];
  }

  async evalSha(sha: string, numKeys: number, args: unknown[], fallback: string): Promise<unknown> {
    try {
      return await this.command("EVALSHA", [sha, numKeys, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
      return await this.command("EVAL", [fallback, numKeys, ...args]);
    }
  }

  blockingZPopMin(key: string, timeoutSec: number): Promise<unknown> {
    return this.command("BZPOPMIN", [key, timeoutSec]);
  }

  blockingXRead(streams: string[], ids: string[], blockMs: number, count: number) {
    return this.command("XREAD", ["BLOCK", blockMs, "COUNT", count, "STREAMS", ...streams, ...ids]);
  }

  async subscribe(channel: string, handler: (message: string) => void) {
    const listener = (message: string | Uint8Array) => handler(String(message));
    await this.cluster.subscribe(channel, listener);
    return async () => {
      await this.cluster.unsubscribe(channel, listener).catch(() => {});
    };
  }

  async duplicate(): Promise<ClusterDriver> {
    const driver = new ClusterDriver(this.#nodes);
    await driver.connect();
    return driver;
  }

  async connect(): Promise<void> {
    if (!this.cluster.isOpen) await this.cluster.connect();
  }

  async close(): Promise<void> {
    await this.cluster.close().catch(() => {});
  }

  disconnect(): Promise<void> {
    this.cluster.destroy();
    return Promise.resolve();
  }
}

/** A taskora Redis adapter writing to the cluster these nodes belong to. */
export function clusterAdapter(rootNodes: Node[]): Adapter {
  const probe = redisAdapter("redis://127.0.0.1:1") as unknown as {
    constructor: new (options: { driver: unknown; ownsDriver: boolean }) => Adapter;
  };
  return new probe.constructor({ driver: new ClusterDriver(rootNodes), ownsDriver: true });
}
