/**
 * Task discovery, and the one function every SCAN of the Redis source goes
 * through ({@link scanKeys}), so that on Redis Cluster it can run once per
 * master node.
 *
 * @module
 */

import { keyRoot, parseKey } from "../wire/keys.ts";
import type { SharedTaskList } from "./background_share.ts";
import { Cadence } from "./cadence.ts";
import type { Command, RedisConnection } from "./client.ts";
import type { CommandTarget } from "./topology.ts";
import { Pacer } from "./pacer.ts";
import { Watch } from "./watch.ts";
import { systemTimers, type Timers } from "../../timers.ts";

/** Keys asked for per SCAN call. */
export const SCAN_COUNT = 1000;

/** Escapes the glob characters of a literal part of a MATCH pattern. */
export function globEscape(literal: string): string {
  return literal.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

/**
 * Walks the whole keyspace with `SCAN <cursor> MATCH <pattern> COUNT 1000`
 * and yields each batch of matching keys. Every SCAN of the source goes
 * through here; on Redis Cluster it walks every master in turn (each holds
 * its own slots). Cost: one round trip per 1,000 keys of the keyspace
 * (matching or not); Redis does O(COUNT) work per call.
 */
export async function* scanKeys(
  connection: RedisConnection,
  pattern: string,
): AsyncGenerator<string[]> {
  for (const node of await connection.masters()) {
    let cursor = "0";
    do {
      const [next, keys] = await connection.callOn<[string, string[]]>(node, [
        "SCAN",
        cursor,
        "MATCH",
        pattern,
        "COUNT",
        String(SCAN_COUNT),
      ]);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== "0");
  }
}

/**
 * The connection as {@link scanKeys} sees it when a walk is paced: each
 * command it sends (`call`, `callOn`, or each command of a `pipeline`) waits for one
 * of the budget first, every SCAN call included, those whose batch matched
 * nothing and so yield nothing. A walk whose `signal` aborted stops at its
 * next command. Everything else is the connection's own (a Proxy, so that
 * however `scanKeys` talks to Redis it goes through the budget).
 */
export function pacedConnection(
  connection: RedisConnection,
  pacer: Pacer,
  signal?: AbortSignal,
): RedisConnection {
  const spend = async (cost: number) => {
    await pacer.take(cost, signal);
    if (signal?.aborted) throw new Error("the walk was stopped");
  };
  const call = async <T>(command: Command): Promise<T> => {
    await spend(1);
    return await connection.call<T>(command);
  };
  const pipeline = async (commands: readonly Command[]): Promise<unknown[]> => {
    await spend(commands.length);
    return await connection.pipeline(commands);
  };
  const callOn = async <T>(node: CommandTarget, args: readonly string[]): Promise<T> => {
    await spend(1);
    return await connection.callOn<T>(node, args);
  };
  return new Proxy(connection, {
    get(target, property) {
      if (property === "call") return call;
      if (property === "pipeline") return pipeline;
      if (property === "callOn") return callOn;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Finds every task that has at least one key (`<root>:{T}:*`), sorted. With
 * a `pacer`, each SCAN call waits for one command of its budget.
 */
export async function discoverTasks(
  connection: RedisConnection,
  prefix?: string,
  pacer?: Pacer,
  signal?: AbortSignal,
): Promise<string[]> {
  const tasks = new Set<string>();
  const walker = pacer ? pacedConnection(connection, pacer, signal) : connection;
  for await (const keys of scanKeys(walker, `${globEscape(keyRoot(prefix))}:{*`)) {
    for (const key of keys) {
      const parsed = parseKey(key, prefix);
      if (parsed?.kind === "task") tasks.add(parsed.task);
    }
  }
  return [...tasks].sort();
}

/**
 * The keys without a TTL in the keyspace (every master's, every database's),
 * from `INFO keyspace`: one O(1) command per master. A task's first key is
 * one of them (its job's hash, its wait list, its events stream); the
 * board's own short-lived keys, the change feed's hashes (which expire a day
 * after their last write, `store/redis/feed.ts`) and taskora's minute
 * counters are not.
 */
export async function lastingKeys(connection: RedisConnection): Promise<number> {
  let lasting = 0;
  for (const node of await connection.masters()) {
    const info = await connection.callOn<string>(node, ["INFO", "keyspace"]);
    for (const [, keys, expires] of info.matchAll(/keys=(\d+),expires=(\d+)/g)) {
      lasting += Number(keys) - Number(expires);
    }
  }
  return lasting;
}

/**
 * How long discovery goes on skipping its SCANs while the keyspace holds as
 * many lasting keys as at its last walk, ms: a new task's keys could have
 * come exactly as others went (see {@link TaskDiscovery}).
 */
export const UNCHANGED_WALK_MAX_MS = 600_000;

/** SCAN calls per second every walk of the keyspace may make, by default. */
export const DEFAULT_SCANS_PER_SECOND = 250;

/** By default, a task that gets its first key is listed within this many ms while watched. */
export const DEFAULT_FRESHNESS_MS = 60_000;

/**
 * SCAN calls per second discovery's passes average at most, by default:
 * on a big keyspace, passes come less often than the freshness asks.
 */
export const DEFAULT_AVERAGE_SCANS_PER_SECOND = 10;

/** Options of {@link TaskDiscovery}. */
export interface TaskDiscoveryOptions {
  prefix?: string;
  /** A fixed task list: no SCAN at all. */
  tasks?: string[];
  /**
   * Shortest pause between two passes, ms (default 10,000); also the
   * shortest pause between two rediscoveries asked for by a miss.
   */
  intervalMs?: number;
  /** Who looks at the board: passes run only while someone does (default: a new one). */
  watch?: Watch;
  /** The SCAN budget, shared with the source's other walks (default 250 SCAN calls/s). */
  pacer?: Pacer;
  /** How old the list may be while watched, ms (default 60,000); see {@link TaskDiscovery}. */
  freshnessMs?: number;
  /** SCAN calls per second the passes average at most (default 10); wins over `freshnessMs`. */
  averageScansPerSecond?: number;
  /** Tasks known without a SCAN (a taskora App's registered ones), added to every discovery. */
  known?: () => readonly string[];
  /** The clock and timers its passes run on (default the runtime's; tests pass fake ones). */
  timers?: Timers;
  /**
   * When several boards share the keyspace: whether this one leads (only
   * the leader SCANs), and the list the leader shared last, or null.
   */
  shared?: {
    leads(): boolean;
    read(): Promise<SharedTaskList | null>;
  };
}

/**
 * The cached task list: discovered on first use, then refreshed by
 * background passes while the board is watched, and on demand by
 * {@link refresh}. A lookup's miss ({@link refreshOnMiss}) rediscovers at
 * most once per `intervalMs`, sharing the pass in flight, so requests
 * naming unknown jobs cannot each start a keyspace SCAN (an unknown task is
 * refused before the source is asked: `checked.ts`).
 *
 * Cost and freshness. A pass is one `SCAN … COUNT 1000` per 1,000 keys of
 * the keyspace, paced by the SCAN budget (250 calls/s by default). The next
 * pass waits 30 times the Redis time the last one took (so discovery uses
 * at most ~3% of Redis's time), at least `intervalMs`, and at most what
 * keeps the list `freshnessMs` (60 s) fresh: pause + pass ≤ 60 s, unless
 * the passes would then average more than `averageScansPerSecond` (10)
 * SCAN calls a second. For a keyspace of K keys, a pass takes at least
 * K / 250,000 s: up to 600,000 keys a new task shows within a minute;
 * 1M keys → a pass of 1,000 SCANs (4 s) every 100 s, 10 SCANs/s; 10M keys
 * → 10,000 SCANs every 1,000 s. (Before the average cap: 1M keys cost
 * ~17–33 SCANs/s, 10M ≈ 167/s.) A request naming a task the list lacks
 * still rediscovers at once (at most once per `intervalMs`) on the
 * leader. While nobody watches (no SSE client, no
 * request for a minute) no pass runs: an idle board makes no SCAN; the
 * first request after idle answers from the cache and starts a pass.
 *
 * A pass first counts the keyspace's lasting keys (those without a TTL,
 * {@link lastingKeys}: one INFO per master) and walks only when they are
 * not as many as at its last walk, or that walk is
 * {@link UNCHANGED_WALK_MAX_MS} old: a keyspace where nothing is added or
 * removed (nothing moving) is not walked again and again. Before, at
 * 158,000 keys (1,000 tasks), its walk every minute was 2.6 SCANs/s of one
 * open browser's cost with nothing moving, and at 1M keys 10 a second.
 *
 * With `shared`, only the leader SCANs: a follower's pass (and a miss on a
 * follower) reads the list the leader shared, one GET; when none is
 * shared (no leader yet, or it just closed), it discovers for itself, as a
 * lone board does.
 */
export class TaskDiscovery {
  readonly #connection: RedisConnection;
  readonly #prefix?: string;
  readonly #fixed?: string[];
  readonly #intervalMs: number;
  readonly #known?: () => readonly string[];
  readonly #now: () => number;
  readonly #pacer: Pacer;
  readonly #cadence: Cadence<string[]>;
  readonly #shared?: TaskDiscoveryOptions["shared"];
  #tasks: string[] | null = null;
  /** When the pass that found `#tasks` started, ms since the epoch (shared across processes). */
  #asOf = 0;
  /** The lasting keys when the last walk started, and when (the timers' clock). */
  #walked: { lasting: number; at: number } | null = null;
  #lastRefresh = -Infinity;

  /** Creates the discovery; nothing runs until first use. */
  constructor(connection: RedisConnection, options: TaskDiscoveryOptions = {}) {
    this.#connection = connection;
    this.#prefix = options.prefix;
    this.#fixed = options.tasks ? [...new Set(options.tasks)].sort() : undefined;
    this.#intervalMs = options.intervalMs ?? 10_000;
    this.#known = options.known;
    this.#shared = options.shared;
    const timers = options.timers ?? systemTimers;
    this.#now = () => timers.now();
    this.#pacer = options.pacer ?? new Pacer(DEFAULT_SCANS_PER_SECOND);
    this.#cadence = new Cadence((signal) => this.#pass(signal), options.watch ?? new Watch(), {
      minMs: this.#intervalMs,
      factor: 30,
      freshnessMs: options.freshnessMs ?? DEFAULT_FRESHNESS_MS,
      averagePerSecond: options.averageScansPerSecond ?? DEFAULT_AVERAGE_SCANS_PER_SECOND,
      pacer: this.#pacer,
      timers,
    });
  }

  /** The pause planned before the next background pass, ms. */
  get nextPassInMs(): number {
    return this.#cadence.nextPauseMs;
  }

  /** The list as last found, and when its pass started (ms since the epoch); null before. */
  get snapshot(): SharedTaskList | null {
    if (this.#fixed) return { tasks: [...this.#fixed], asOf: this.#asOf };
    return this.#tasks && { tasks: [...this.#tasks], asOf: this.#asOf };
  }

  /** The cached tasks (discovering them on first use). */
  async list(): Promise<string[]> {
    if (this.#fixed) return [...this.#fixed];
    if (this.#tasks === null) return [...await this.refresh()];
    return [...this.#tasks];
  }

  /** Discovers now; concurrent callers share one pass. */
  async refresh(): Promise<string[]> {
    if (this.#fixed) return [...this.#fixed];
    return [...await this.#cadence.run()];
  }

  /**
   * Rediscovers after a lookup missed (an unknown task, or an id in no known
   * task), at most once per interval: within it, the list the last pass
   * found (one may have ended while the caller looked, finding what it
   * missed); null when the list is fixed.
   */
  async refreshOnMiss(): Promise<string[] | null> {
    if (this.#fixed) return null;
    const recent = this.#now() - this.#lastRefresh < this.#intervalMs;
    if (recent && !this.#cadence.running && this.#tasks !== null) return [...this.#tasks];
    return await this.refresh();
  }

  /** Stops the background passes and waits for one in flight. */
  async stop(): Promise<void> {
    await this.#cadence.stop();
  }

  async #pass(signal: AbortSignal): Promise<string[]> {
    // Counted from the start: a miss during a long pass joins it instead of queueing another.
    this.#lastRefresh = this.#now();
    if (this.#shared && !this.#shared.leads()) {
      const shared = await this.#shared.read();
      if (shared) return this.#found(shared.tasks, shared.asOf);
    }
    const asOf = Date.now();
    const lasting = await lastingKeys(this.#connection);
    const walked = this.#walked;
    if (
      this.#tasks !== null && walked !== null && walked.lasting === lasting &&
      this.#now() - walked.at < UNCHANGED_WALK_MAX_MS
    ) {
      // No key came or went for good since the last walk: no task can have got its first key.
      return this.#found(this.#tasks, asOf);
    }
    const at = this.#now();
    const found = await discoverTasks(this.#connection, this.#prefix, this.#pacer, signal);
    this.#walked = { lasting, at };
    return this.#found(found, asOf);
  }

  #found(found: string[], asOf: number): string[] {
    const tasks = this.#known ? [...new Set([...found, ...this.#known()])].sort() : found;
    this.#tasks = tasks;
    this.#asOf = asOf;
    return tasks;
  }
}
