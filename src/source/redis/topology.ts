/**
 * Where the Redis source's commands go: one server (a node-redis client), a
 * Redis Cluster (node-redis `createCluster`), or the master a Sentinel set
 * names (node-redis `createSentinel`). {@link RedisConnection} sees only the
 * {@link Topology} seam: send a command routed by its first key, list the
 * masters (for SCAN), and say what live events need.
 *
 * Cluster routing is node-redis's own: a command goes to the master of its
 * first key's slot, and commands sent in the same tick to one node leave as
 * one pipeline. What node-redis does not do by itself is look again at the
 * slot map when a master dies without answering `MOVED`; the cluster
 * topology does so after every connection failure ({@link Topology.failed}),
 * at most twice a second.
 *
 * @module
 */

import { createClient, createCluster, createSentinel } from "redis";
import type { RedisClientLike } from "./client.ts";
import { CountedCache, CountedPooledCache, type DropCounting } from "./counted_cache.ts";

/** `host:port` of one Redis node. */
export interface RedisNodeAddress {
  /** Host name or IP. */
  host: string;
  /** TCP port. */
  port: number;
}

/** A Redis Cluster to connect to. */
export interface RedisClusterConfig {
  /** Some nodes of the cluster (the slot map is read from the first that answers). */
  rootNodes: RedisNodeAddress[];
  /** ACL user name for every node. */
  username?: string;
  /** Password for every node. */
  password?: string;
  /** Use TLS for every node. */
  tls?: boolean;
}

/** A Sentinel set whose master the source talks to. */
export interface RedisSentinelConfig {
  /** The master's name in the sentinels' configuration. */
  name: string;
  /** Some of the sentinels. */
  sentinels: RedisNodeAddress[];
  /** ACL user name of the data nodes. */
  username?: string;
  /** Password of the data nodes. */
  password?: string;
  /** Use TLS for the data nodes. */
  tls?: boolean;
}

/** Something that takes a raw command: a node of the topology. */
export interface CommandTarget {
  /** Sends one raw command. */
  sendCommand<T = unknown>(args: readonly string[]): Promise<T>;
}

/** The seam between {@link RedisConnection} and the servers. */
export interface Topology {
  /** Connected and usable. */
  readonly isReady: boolean;
  /** Connecting or connected (not closed). */
  readonly isOpen: boolean;
  /**
   * Keys of different slots may not share one command (Redis Cluster); the
   * live event reader then polls each stream with its own XREAD instead of
   * blocking on all of them at once.
   */
  readonly sharded: boolean;
  /** Starts connecting; settles once connected (failures are retried by the topology). */
  connect(): Promise<unknown>;
  /** Closes gracefully. */
  close(): Promise<unknown>;
  /** Closes at once. */
  destroy(): void;
  /** `ready` after every (re)connection, `error` on a failure. */
  on(event: "ready" | "error", listener: () => void): void;
  /** Removes a listener. */
  off(event: "ready" | "error", listener: () => void): void;
  /** Sends one command to the node serving `key` (any node when undefined). */
  send(key: string | undefined, args: readonly string[]): Promise<unknown>;
  /** One target per master, for commands that run on every node (SCAN). */
  masters(): Promise<CommandTarget[]>;
  /** A command failed for want of a connection: the topology may have changed. */
  failed(): void;
  /**
   * A new, unconnected client of the same master, for a blocking reader
   * (XREAD BLOCK holds its connection); none on a sharded topology.
   */
  blockingClient(): RedisClientLike | null;
  /**
   * A new, unconnected client of the same servers in RESP3 with Redis's
   * client tracking, whose reads node-redis's client-side cache (of at most
   * `maxEntries` reads) answers again without a round trip until Redis
   * invalidates their key; null for a caller's client that does not say
   * its options (not node-redis's).
   */
  trackingClient(maxEntries: number): TrackingClient | null;
}

/**
 * A client made by {@link Topology.trackingClient}. node-redis drops its
 * cache when the connection errs or closes (and while a cluster's slot map
 * is read again), and turns tracking on again at each reconnection.
 */
export interface TrackingClient {
  /** Connected and usable. */
  readonly isReady: boolean;
  /** Starts connecting; settles once connected. */
  connect(): Promise<unknown>;
  /** Closes gracefully. */
  close(): Promise<unknown>;
  /** Closes at once. */
  destroy(): void;
  /** HGET, from the cache while Redis has not invalidated `key`. */
  hGet(key: string, field: string): Promise<string | null>;
  /** HGETALL as RESP2 answers it (fields and values in turn), from the cache likewise. */
  hGetAll(key: string): Promise<string[]>;
  /** ZRANGE 0 -1 WITHSCORES as RESP2 answers it (members and scores in turn), likewise. */
  zRangeWithScores(key: string): Promise<string[]>;
  /** GET, likewise. */
  get(key: string): Promise<string | null>;
  /** Drops what the cache holds of `key` (a write of this board's, invalidated later by Redis). */
  forget(key: string): void;
  /** Before a read of `key`: what {@link unchangedSince} is asked with to answer it again. */
  mark(key: string): number;
  /** Whether the cache dropped nothing of `key` since `mark`: a read taken then still stands. */
  unchangedSince(key: string, mark: number): boolean;
}

/**
 * The options that make a node-redis client a {@link TrackingClient}'s: its
 * cache counts its drops; a cluster's and a sentinel set's (`pooled`) is
 * shared by their nodes' connections.
 */
function trackingOptions(maxEntries: number, pooled: boolean) {
  const config = { maxEntries };
  return {
    RESP: 3 as const,
    clientSideCache: pooled ? new CountedPooledCache(config) : new CountedCache(config),
  };
}

/** What node-redis clients, clusters and sentinels with a client-side cache offer. */
interface CachingClient {
  readonly isReady?: boolean;
  hGet(key: string, field: string): Promise<unknown>;
  hGetAll(key: string): Promise<unknown>;
  zRangeWithScores(key: string, start: number, stop: number): Promise<unknown>;
  get(key: string): Promise<unknown>;
  readonly clientSideCache?: { invalidate(key: string): void } & Partial<DropCounting>;
}

/** The tracking read and the cache's invalidation of `client()`, the one in use. */
function trackedReads(
  client: () => CachingClient,
): Pick<
  TrackingClient,
  "hGet" | "hGetAll" | "zRangeWithScores" | "get" | "forget" | "mark" | "unchangedSince"
> {
  // A client made with trackingOptions has a counting cache; with none, no read stands.
  const drops = (): Partial<DropCounting> => client().clientSideCache ?? {};
  return {
    hGet: async (key, field) => (await client().hGet(key, field) as string | null) ?? null,
    // RESP3 answers a map and (member, double) pairs: flattened as the command connection reads them.
    hGetAll: async (key) =>
      Object.entries(await client().hGetAll(key) as Record<string, string>).flat(),
    zRangeWithScores: async (key) =>
      (await client().zRangeWithScores(key, 0, -1) as { value: string; score: number }[])
        .flatMap(({ value, score }) => [value, String(score)]),
    get: async (key) => (await client().get(key) as string | null) ?? null,
    forget: (key) => client().clientSideCache?.invalidate(key),
    mark: (key) => drops().mark?.(key) ?? 0,
    unchangedSince: (key, mark) => drops().unchangedSince?.(key, mark) ?? false,
  };
}

/** How a topology connects: the timeout and the backoff its node clients use. */
export interface TopologyTiming {
  /** Longest wait for a connection, ms. */
  connectTimeoutMs: number;
  /** Pause before the n-th reconnection attempt, ms. */
  reconnectDelay: (retries: number) => number;
}

/** One server, through a node-redis client (made here or the caller's). */
export class ServerTopology implements Topology {
  /** The node-redis client. */
  readonly client: RedisClientLike;
  readonly sharded = false;

  /** Wraps the client; nothing is sent until {@link connect}. */
  constructor(client: RedisClientLike) {
    this.client = client;
  }

  get isReady(): boolean {
    return this.client.isReady;
  }

  get isOpen(): boolean {
    return this.client.isOpen;
  }

  connect(): Promise<unknown> {
    return this.client.connect();
  }

  close(): Promise<unknown> {
    return this.client.close();
  }

  destroy(): void {
    this.client.destroy();
  }

  on(event: "ready" | "error", listener: () => void): void {
    this.client.on(event, listener);
  }

  off(event: "ready" | "error", listener: () => void): void {
    this.client.off(event, listener);
  }

  send(_key: string | undefined, args: readonly string[]): Promise<unknown> {
    return this.client.sendCommand(args);
  }

  masters(): Promise<CommandTarget[]> {
    return Promise.resolve([this.client]);
  }

  failed(): void {
    // node-redis reconnects by itself
  }

  blockingClient(): RedisClientLike {
    return duplicateClient(this.client);
  }

  trackingClient(maxEntries: number): TrackingClient | null {
    const options = (this.client as { options?: object }).options;
    if (options === undefined) return null;
    // Made anew from the command client's options, not duplicate()d: a duplicate keeps its
    // class's RESP2 reply transforms, which read RESP3's HGETALL map as an empty hash.
    const client = createClient({ ...options, ...trackingOptions(maxEntries, false) }) as unknown as
      & RedisClientLike
      & CachingClient;
    // Its errors are the command connection's to report; they must not crash the process.
    client.on("error", () => {});
    return {
      get isReady() {
        return client.isReady;
      },
      connect: () => client.connect(),
      close: () => client.close(),
      destroy: () => client.destroy(),
      ...trackedReads(() => client),
    };
  }
}

/**
 * A new client for a blocking connection: a duplicate of the command client
 * (same URL, TLS and credentials).
 */
export function duplicateClient(client: RedisClientLike): RedisClientLike {
  const duplicate = (client as RedisClientLike & { duplicate?: () => RedisClientLike }).duplicate;
  if (typeof duplicate !== "function") {
    throw new TypeError(
      "queue-board: live events need a node-redis client that can duplicate() itself",
    );
  }
  return duplicate.call(client);
}

/** Makes the node-redis client of one server at `url`, fail-fast. */
export function serverClient(url: string, timing: TopologyTiming): RedisClientLike {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: timing.connectTimeoutMs, reconnectStrategy: timing.reconnectDelay },
  }) as unknown as RedisClientLike;
}

/** Options every data-node client of a cluster or sentinel set gets: fail fast, reconnect. */
function nodeOptions(
  config: { username?: string; password?: string; tls?: boolean },
  timing: TopologyTiming,
) {
  return {
    username: config.username,
    password: config.password,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timing.connectTimeoutMs,
      reconnectStrategy: timing.reconnectDelay,
      ...(config.tls ? { tls: true as const } : {}),
    },
  };
}

/** What a cluster or sentinel client offers that {@link KeptOpen} needs. */
interface Connectable extends CachingClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * Keeps a cluster or sentinel client connecting until it is closed: their
 * `connect()` gives up when no node answers (a node-redis client retries by
 * itself), so this retries with the same backoff, and says `ready` /
 * `error` the way a node-redis client does.
 */
abstract class KeptOpen<C extends Connectable> {
  protected client: C;
  readonly #make: () => C;
  readonly #timing: TopologyTiming;
  readonly #listeners = { ready: new Set<() => void>(), error: new Set<() => void>() };
  #connecting: Promise<void> | null = null;
  #ready = false;
  #closed = false;

  constructor(make: () => C, timing: TopologyTiming) {
    this.#make = make;
    this.#timing = timing;
    this.client = this.#fresh();
  }

  #fresh(): C {
    const client = this.#make();
    // node-redis 'error' events must not crash the process; the listeners are told.
    client.on("error", () => this.#emit("error"));
    return client;
  }

  /** A node (re)connected: `ready` again, once the first connection is made. */
  protected nodeReady(): void {
    if (this.#ready) this.#emit("ready");
  }

  #emit(event: "ready" | "error"): void {
    for (const listener of this.#listeners[event]) listener();
  }

  get isReady(): boolean {
    return this.#ready && !this.#closed;
  }

  get isOpen(): boolean {
    return this.#connecting !== null && !this.#closed;
  }

  connect(): Promise<void> {
    this.#connecting ??= this.#keepTrying();
    return this.#connecting;
  }

  async #keepTrying(): Promise<void> {
    for (let retries = 0; !this.#closed; retries++) {
      try {
        if (!this.client.isOpen) await this.client.connect();
        this.#ready = true;
        this.#emit("ready");
        return;
      } catch {
        this.#emit("error");
        if (this.#closed) break;
        this.client.destroy();
        this.client = this.#fresh();
        await new Promise((resolve) => setTimeout(resolve, this.#timing.reconnectDelay(retries)));
      }
    }
    throw new Error("closed");
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#ready) await this.client.close().catch(() => this.client.destroy());
    else this.client.destroy();
  }

  destroy(): void {
    this.#closed = true;
    this.client.destroy();
  }

  on(event: "ready" | "error", listener: () => void): void {
    this.#listeners[event].add(listener);
  }

  off(event: "ready" | "error", listener: () => void): void {
    this.#listeners[event].delete(listener);
  }

  /** This topology as a {@link TrackingClient} (made with {@link trackingOptions}). */
  protected asTrackingClient(): TrackingClient {
    const ready = () => this.isReady;
    return {
      get isReady() {
        return ready();
      },
      connect: () => this.connect(),
      close: () => this.close(),
      destroy: () => this.destroy(),
      ...trackedReads(() => this.client),
    };
  }
}

type Cluster = ReturnType<typeof createCluster>;
type ClusterNodeClient = Awaited<ReturnType<Cluster["nodeClient"]>>;

/** Shortest pause between two rediscoveries of a cluster's slot map, ms. */
const REDISCOVER_EVERY_MS = 500;

/** A Redis Cluster: commands by slot, SCAN on every master. */
export class ClusterTopology extends KeptOpen<Cluster> implements Topology {
  readonly sharded = true;
  #rediscovered = 0;

  readonly #config: RedisClusterConfig;
  readonly #timing: TopologyTiming;

  /**
   * Creates the cluster client (with `tracking`, a {@link TrackingClient}'s);
   * nothing is sent until {@link connect}.
   */
  constructor(config: RedisClusterConfig, timing: TopologyTiming, tracking: object = {}) {
    super(() => {
      const cluster = createCluster({
        rootNodes: config.rootNodes.map((node) => ({
          socket: { host: node.host, port: node.port },
        })),
        defaults: nodeOptions(config, timing),
        ...tracking,
      });
      // Errors of one node: the command that met them fails and says so.
      cluster.on("node-error", () => {});
      cluster.on("node-ready", () => this.nodeReady());
      return cluster;
    }, timing);
    this.#config = config;
    this.#timing = timing;
  }

  send(key: string | undefined, args: readonly string[]): Promise<unknown> {
    return this.client.sendCommand(key, false, [...args]);
  }

  async masters(): Promise<CommandTarget[]> {
    return await Promise.all(
      this.client.masters.map(async (master) => {
        const client: ClusterNodeClient = await this.client.nodeClient(master);
        return client as unknown as CommandTarget;
      }),
    );
  }

  /**
   * Reads the slot map again (node-redis does so by itself only on a
   * `MOVED` reply, which a dead master never sends), starting from a master
   * that is connected, at most every {@link REDISCOVER_EVERY_MS}.
   */
  failed(): void {
    if (!this.isReady || Date.now() - this.#rediscovered < REDISCOVER_EVERY_MS) return;
    this.#rediscovered = Date.now();
    const nodes = this.client.masters.map((master) => master.client).filter((c) => c !== undefined);
    const start = nodes.find((client) => client.isReady) ?? nodes[0];
    if (start) this.client._slots.rediscover(start).catch(() => {});
  }

  blockingClient(): null {
    return null;
  }

  /** A cluster client of its own: node-redis tracks on a connection to each master it reads. */
  trackingClient(maxEntries: number): TrackingClient {
    return new ClusterTopology(this.#config, this.#timing, trackingOptions(maxEntries, true))
      .asTrackingClient();
  }
}

type Sentinel = ReturnType<typeof createSentinel>;

/** Makes the node-redis sentinel client of a config. */
function sentinelClient(
  config: RedisSentinelConfig,
  timing: TopologyTiming,
  tracking: object,
): Sentinel {
  return createSentinel({
    name: config.name,
    sentinelRootNodes: config.sentinels.map((node) => ({ host: node.host, port: node.port })),
    nodeClientOptions: nodeOptions(config, timing),
    sentinelClientOptions: { socket: { connectTimeout: timing.connectTimeoutMs } },
    ...tracking,
  });
}

/** The master of a Sentinel set, followed across failovers by node-redis. */
export class SentinelTopology extends KeptOpen<Sentinel> implements Topology {
  readonly sharded = false;
  readonly #config: RedisSentinelConfig;
  readonly #timing: TopologyTiming;

  /**
   * Creates the sentinel client (with `tracking`, a {@link TrackingClient}'s);
   * nothing is sent until {@link connect}.
   */
  constructor(config: RedisSentinelConfig, timing: TopologyTiming, tracking: object = {}) {
    super(() => {
      const sentinel = sentinelClient(config, timing, tracking);
      sentinel.on("topology-change", () => {});
      return sentinel;
    }, timing);
    this.#config = config;
    this.#timing = timing;
  }

  send(_key: string | undefined, args: readonly string[]): Promise<unknown> {
    return this.client.sendCommand(false, [...args]);
  }

  masters(): Promise<CommandTarget[]> {
    return Promise.resolve([{
      sendCommand: <T>(args: readonly string[]) =>
        this.client.sendCommand(false, [...args]) as Promise<T>,
    }]);
  }

  failed(): void {
    // node-redis follows the sentinels' switch-master announcements by itself
  }

  /** A sentinel client of its own: XREAD BLOCK holds its one master connection. */
  blockingClient(): RedisClientLike {
    const topology = new SentinelTopology(this.#config, this.#timing);
    return {
      get isOpen() {
        return topology.isOpen;
      },
      get isReady() {
        return topology.isReady;
      },
      sendCommand: <T>(args: readonly string[]) => topology.send(undefined, args) as Promise<T>,
      connect: () => topology.connect(),
      close: () => topology.close(),
      destroy: () => topology.destroy(),
      on: (event: string, listener: () => void) =>
        topology.on(event as "ready" | "error", listener),
      off: (event: string, listener: () => void) =>
        topology.off(event as "ready" | "error", listener),
    };
  }

  /** A sentinel client of its own, following the master across failovers as this one does. */
  trackingClient(maxEntries: number): TrackingClient {
    return new SentinelTopology(this.#config, this.#timing, trackingOptions(maxEntries, true))
      .asTrackingClient();
  }
}
