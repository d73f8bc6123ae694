/**
 * Real taskora (`../shared/taskora/taskora.js`) writing to a Redis Cluster.
 *
 * taskora's `redisAdapter()` takes a URL, ioredis options or an ioredis
 * `Redis` instance; it would wrap an ioredis `Cluster` in a new `Redis`.
 * taskora's backend and driver do support a Cluster (its keys carry `{task}`
 * hash tags; ioredis routes each command by slot), so this builds the same
 * backend with the driver around an ioredis Cluster, taking the classes
 * from an adapter made for a URL (never connected).
 *
 * @module
 */

// @ts-types="../../../shared/taskora/taskora.d.ts"
import { redisAdapter } from "../../../shared/taskora/taskora.js";

type Adapter = ReturnType<typeof redisAdapter>;

/** A taskora Redis adapter over an ioredis Cluster of these nodes. */
export function clusterAdapter(rootNodes: { host: string; port: number }[]): Adapter {
  // lazyConnect: this adapter only lends its classes and never connects.
  const probe = redisAdapter("redis://127.0.0.1:1") as unknown as {
    constructor: new (options: { driver: unknown; ownsDriver: boolean }) => Adapter;
    driver: {
      constructor: new (client: unknown) => unknown;
      client: { constructor: { Cluster: new (nodes: unknown[], options?: unknown) => unknown } };
    };
  };
  const Cluster = probe.driver.client.constructor.Cluster;
  const cluster = new Cluster(rootNodes, { redisOptions: { maxRetriesPerRequest: 1 } });
  return new probe.constructor({ driver: new probe.driver.constructor(cluster), ownsDriver: true });
}
