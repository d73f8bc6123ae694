/**
 * Task discovery, and the one function every SCAN of the Redis source goes
 * through ({@link scanKeys}), so that on Redis Cluster it can run once per
 * master node.
 *
 * @module
 */

import { keyRoot, parseKey } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

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

/** Finds every task that has at least one key (`<root>:{T}:*`), sorted. */
export async function discoverTasks(
  connection: RedisConnection,
  prefix?: string,
): Promise<string[]> {
  const tasks = new Set<string>();
  for await (const keys of scanKeys(connection, `${globEscape(keyRoot(prefix))}:{*`)) {
    for (const key of keys) {
      const parsed = parseKey(key, prefix);
      if (parsed?.kind === "task") tasks.add(parsed.task);
    }
  }
  return [...tasks].sort();
}

/** Options of {@link TaskDiscovery}. */
export interface TaskDiscoveryOptions {
  prefix?: string;
  /** A fixed task list: no SCAN at all. */
  tasks?: string[];
  /**
   * Background refresh period, ms (default 10,000); also the shortest pause
   * between two rediscoveries asked for by a miss.
   */
  intervalMs?: number;
  /** Tasks known without a SCAN (a taskora App's registered ones), added to every discovery. */
  known?: () => readonly string[];
}

/**
 * The cached task list: discovered on first use, refreshed in the
 * background every `intervalMs` (unref'd timer, cleared by {@link stop}),
 * and on demand by {@link refresh}. A miss ({@link has},
 * {@link refreshOnMiss}) rediscovers at most once per `intervalMs`, sharing
 * the SCAN in flight, so requests naming unknown tasks cannot each start a
 * keyspace SCAN.
 */
export class TaskDiscovery {
  readonly #connection: RedisConnection;
  readonly #prefix?: string;
  readonly #fixed?: string[];
  readonly #intervalMs: number;
  readonly #known?: () => readonly string[];
  #tasks: string[] | null = null;
  #inFlight: Promise<string[]> | null = null;
  #lastRefresh = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  /** Creates the discovery; nothing runs until first use. */
  constructor(connection: RedisConnection, options: TaskDiscoveryOptions = {}) {
    this.#connection = connection;
    this.#prefix = options.prefix;
    this.#fixed = options.tasks ? [...new Set(options.tasks)].sort() : undefined;
    this.#intervalMs = options.intervalMs ?? 10_000;
    this.#known = options.known;
  }

  /** The cached tasks (discovering them on first use). */
  async list(): Promise<string[]> {
    if (this.#fixed) return [...this.#fixed];
    if (this.#tasks === null) return [...await this.refresh()];
    return [...this.#tasks];
  }

  /** Discovers now; concurrent callers share one SCAN. */
  refresh(): Promise<string[]> {
    if (this.#fixed) return Promise.resolve([...this.#fixed]);
    if (!this.#inFlight) {
      this.#inFlight = discoverTasks(this.#connection, this.#prefix)
        .then((found) => {
          const tasks = this.#known ? [...new Set([...found, ...this.#known()])].sort() : found;
          this.#tasks = tasks;
          this.#lastRefresh = Date.now();
          this.#schedule();
          return tasks;
        })
        .finally(() => this.#inFlight = null);
    }
    return this.#inFlight.then((tasks) => [...tasks]);
  }

  /**
   * Whether the task is known; a miss rediscovers (at most once per
   * interval) before answering no.
   */
  async has(task: string): Promise<boolean> {
    if ((await this.list()).includes(task)) return true;
    return (await this.refreshOnMiss())?.includes(task) ?? false;
  }

  /**
   * Rediscovers after a lookup missed (an unknown task, or an id in no known
   * task), at most once per interval; null when the list is fixed or was
   * refreshed within the interval.
   */
  async refreshOnMiss(): Promise<string[] | null> {
    if (this.#fixed) return null;
    if (Date.now() - this.#lastRefresh < this.#intervalMs && !this.#inFlight) return null;
    return await this.refresh();
  }

  /** Stops the background refresh and waits for one in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#inFlight?.catch(() => {});
  }

  #schedule(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const timer = setTimeout(() => {
      this.refresh().catch(() => this.#schedule());
    }, this.#intervalMs);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }
}
