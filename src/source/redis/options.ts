/**
 * The options of the Redis source: where Redis is, taskora's key prefix,
 * and the pace of its background work.
 *
 * @module
 */

import type { RedisClientLike } from "./client.ts";
import type { RedisClusterConfig, RedisSentinelConfig } from "./topology.ts";

/**
 * Options of `createRedisSource`. Where Redis is: at most one of
 * `url`, `client`, `cluster` and `sentinel`.
 */
export interface RedisSourceOptions {
  /** Redis URL (default `redis://127.0.0.1:6379`). */
  url?: string;
  /** A node-redis v5 client of yours: connected if it is not yet, never closed by the source. */
  client?: RedisClientLike;
  /**
   * A Redis Cluster: some of its nodes (node-redis `createCluster` finds the
   * rest). Every task's keys share one slot (`{task}`), so each command
   * goes to one master; SCAN runs on every master.
   */
  cluster?: RedisClusterConfig;
  /** A Sentinel set: the master's name and some sentinels (node-redis `createSentinel`). */
  sentinel?: RedisSentinelConfig;
  /** taskora's key prefix: keys become `taskora:<prefix>:...`. */
  prefix?: string;
  /** The tasks to show; when given, no SCAN is made to discover them. */
  tasks?: string[];
  /** Tasks known without a SCAN (a taskora App's registered ones), always listed. */
  knownTasks?: () => readonly string[];
  /**
   * Shortest pause between two background rediscoveries of tasks and
   * workflows, ms (default 10,000); the pause grows with the keyspace (see
   * `TaskDiscovery`).
   */
  discoveryIntervalMs?: number;
  /** SCAN calls per second the background walks of the keyspace may make together (default 250). */
  scansPerSecond?: number;
  /**
   * Redis commands per second the reconcile of the retrying split may spend,
   * the commands its scripts run included: one cap for all of it (default 2,
   * first counts and rechecks alike); see `retrying_reconcile.ts`.
   */
  reconcileCommandsPerSecond?: number;
  /** How long a request keeps background work going, ms (default 60,000); see `watch.ts`. */
  idleAfterMs?: number;
  /** Longest wait for Redis before a call fails with STORE_UNAVAILABLE, ms (default 2000). */
  commandTimeoutMs?: number;
  /**
   * The lease period of the leader among the boards on this keyspace, ms
   * (default 10,000): only the leader runs discovery and the reconcile, the
   * others read its results; a leader gone is replaced within one period.
   */
  leaseMs?: number;
}
