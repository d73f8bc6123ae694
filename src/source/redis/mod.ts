/**
 * The Redis TaskSource: taskora's wire format 6, read straight from Redis.
 * It is assembled from one part per concern, in `parts/`, over one shared
 * {@link RedisContext} (`context.ts`): tasks and counts, a task's figures,
 * jobs, job actions, dead letters, schedules, workflows, events, streams,
 * workers.
 *
 * @example
 * ```ts ignore
 * import { createRedisSource } from "./mod.ts";
 *
 * const source = createRedisSource({ url: "redis://127.0.0.1:6379" });
 * const tasks = await source.listTasks();
 * console.log(await source.getStats(tasks));
 * await source.close();
 * ```
 *
 * @module
 */

import type { TaskSource } from "../types.ts";
import type { RedisConnection } from "./client.ts";
import { RedisContext } from "./context.ts";
import type { RedisSourceOptions } from "./options.ts";
import { assemble, type Assembled } from "../assemble.ts";
import { checkedSource } from "../checked.ts";
import { RedisBoardStore } from "../../store/redis/mod.ts";
import { pairStore } from "../../store/pairing.ts";
import { systemTimers, type Timers } from "../../timers.ts";
import { RedisCounts } from "./parts/counts.ts";
import { RedisTaskFigures } from "./parts/task_figures.ts";
import { RedisJobs } from "./parts/jobs.ts";
import { RedisJobActions } from "./parts/job_actions.ts";
import { RedisDeadLetters } from "./parts/dead_letters.ts";
import { RedisSchedules } from "./parts/schedules.ts";
import { RedisWorkflows } from "./parts/workflows.ts";
import { RedisEvents } from "./parts/events.ts";
import { RedisStreams } from "./parts/streams.ts";
import { RedisWorkers } from "./parts/workers.ts";

export type { RedisClientLike } from "./client.ts";
export { RedisConnection } from "./client.ts";
export type { RedisClusterConfig, RedisNodeAddress, RedisSentinelConfig } from "./topology.ts";
export type { RedisSourceOptions } from "./options.ts";

/** The parts a Redis source is assembled from, each over the source's context. */
function partsOf(redis: RedisContext) {
  return [
    new RedisCounts(redis),
    new RedisTaskFigures(redis),
    new RedisJobs(redis),
    new RedisJobActions(redis),
    new RedisDeadLetters(redis),
    new RedisSchedules(redis),
    new RedisWorkflows(redis),
    new RedisEvents(redis),
    new RedisStreams(redis),
    new RedisWorkers(redis),
  ] as const;
}

/** The methods the parts give a Redis source. */
type RedisParts = Assembled<[...ReturnType<typeof partsOf>]>;

/** A TaskSource over a taskora keyspace in Redis: the methods of its parts (see the class). */
export interface RedisTaskSource extends RedisParts {}

/**
 * A {@link TaskSource} over a taskora keyspace in Redis. Every method
 * rejects with `StoreUnavailableError` within `commandTimeoutMs` while Redis
 * is unreachable, and with `IncompatibleStoreError` when the keyspace's wire
 * format is one this board does not read.
 */
export class RedisTaskSource {
  /** The connection every read goes through. */
  readonly connection: RedisConnection;
  /** The configured key prefix, if any. */
  readonly prefix?: string;
  /** The board's own state beside this keyspace, through the same connection. */
  readonly boardStore: RedisBoardStore;
  readonly #redis: RedisContext<RedisBoardStore>;

  /**
   * Creates the source; see {@link createRedisSource}. Its background work
   * (discovery, the workflow index, the reconcile, the idle watch) runs on
   * `timers`: tests pass fake ones.
   */
  constructor(options: RedisSourceOptions = {}, timers: Timers = systemTimers) {
    // The board's own keys: no wire check, and a sweep does not count as someone watching.
    this.#redis = new RedisContext(
      options,
      timers,
      (connection) =>
        new RedisBoardStore(connection, { prefix: options.prefix, now: () => timers.now() }),
    );
    this.connection = this.#redis.connection;
    this.prefix = this.#redis.prefix;
    this.boardStore = this.#redis.boardStore;
    Object.assign(this, assemble(...partsOf(this.#redis)));
    pairStore(this, this.boardStore);
  }

  /**
   * Whether this source leads the boards on its keyspace now: only the
   * leader runs discovery and the reconcile; the others serve its results.
   */
  get leading(): boolean {
    return this.#redis.leadership.isLeading;
  }

  /** Whether someone looks at the board: a live subscriber, or a request within `idleAfterMs`. */
  get watched(): boolean {
    return this.#redis.watch.watched;
  }

  /** Blocking connections the live event reader holds (0 or 1). */
  get eventConnections(): number {
    return this.#redis.eventConnections;
  }

  /** Reconciles the retrying split of every due task now (under its budget); for tests and tools. */
  reconcileRetrying(): Promise<void> {
    return this.#redis.reconcileNow();
  }

  /** Stops background work and closes the client if the source created it. */
  close(): Promise<void> {
    return this.#redis.close();
  }
}

/** The Redis source is a whole TaskSource: `deno check` fails when a part leaves a method out. */
true satisfies RedisTaskSource extends TaskSource ? true : never;

/**
 * Creates the Redis TaskSource.
 *
 * @example
 * ```ts ignore
 * const source = createRedisSource({ url: "redis://127.0.0.1:6379", prefix: "app" });
 * ```
 */
export function createRedisSource(options: RedisSourceOptions = {}): RedisTaskSource {
  return checkedSource(new RedisTaskSource(options));
}
