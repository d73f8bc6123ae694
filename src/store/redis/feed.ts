/**
 * The change feed's part of the board's store on Redis (see `../feed.ts`),
 * under the board's root, one slot per key:
 *
 * - `<root>:board:feed:ids`, a hash task → the last entry id delivered;
 * - `<root>:board:live`, a hash: `@asOf` (ms), `@write` (an id of the pass
 *   that wrote last), `@index` (the index, JSON, each task a compact array),
 *   `t:<task>` (its row, JSON) and `@mark:<name>` (a value new at each
 *   change of what it names, `../feed.ts`'s `LiveMark`, read with the index). A page reads `@asOf` and `@index` in one
 *   HMGET and its rows in one more; a reader of every task, `@write` in one
 *   HGET (none while Redis has not invalidated the hash since this board
 *   read it: `../../source/redis/tracked_fields.ts`), and the whole hash in one HGETALL only when a pass wrote since its
 *   last read (an overview reads it at each request, a pass writes once a
 *   second: the hash is 22 KB at 20 tasks, its reply a quarter of the
 *   overview's CPU);
 * - `<root>:board:feed:demand`, a string with a TTL, renewed by every
 *   replica that needs the feed: its value is when the need ends on the
 *   boards' clock, so a board on another clock (fake timers in tests, a
 *   replica a little ahead) judges it by its own; the TTL only clears it.
 *
 * Each holds one entry per task the leader follows, no more: a task gone is
 * dropped from both hashes. Both hashes outlive the last leader that wrote
 * them by {@link FEED_KEYS_TTL_MS}.
 *
 * @module
 */

import { JOB_STATES, type QueueStats } from "../../contract/states.ts";
import type { HealthStatus } from "../../contract/task_list.ts";
import { keyRoot } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import type {
  FeedPositions,
  FeedStore,
  LiveIndex,
  LiveIndexEntry,
  LiveMark,
  LiveRow,
  LiveState,
  LiveStateWrite,
  LiveSummary,
} from "../feed.ts";

/** The keys of the feed's part of the store. */
export function feedKeys(prefix?: string): { ids: string; live: string; demand: string } {
  const root = `${keyRoot(prefix)}:board`;
  return { ids: `${root}:feed:ids`, live: `${root}:live`, demand: `${root}:feed:demand` };
}

/**
 * How long the feed's two hashes outlive the last write, ms: a day. With a
 * TTL they are not among the keyspace's lasting keys, which discovery counts
 * to tell whether a task can have got its first key
 * (`source/redis/discovery.ts`): created without one by a leader's first
 * pass, they made its next discovery pass walk the whole keyspace again
 * (1,000 SCANs at 1M keys, in an idle board's first minute).
 */
export const FEED_KEYS_TTL_MS = 86_400_000;

/** How often a writer renews that TTL, ms: one PEXPIRE an hour beside a write, the first with it. */
const FEED_KEYS_RENEW_MS = 3_600_000;

const AS_OF = "@asOf";
const WRITE = "@write";
const INDEX = "@index";
const MARK = "@mark:";
/** The marks a summary reads, in its HMGET's order. */
const MARKS: readonly LiveMark[] = ["operations"];
const ROW = "t:";
const rowField = (task: string) => `${ROW}${task}`;

/**
 * An index entry as stored: name, status, oldest waiting since and retrying
 * as of (each or null), then the counts.
 */
type CompactEntry = [string, HealthStatus, number | null, number | null, ...number[]];

/** The index with each task as a {@link CompactEntry}: a third of the JSON at many tasks. */
export function encodeIndex(index: LiveIndex): string {
  return JSON.stringify({
    ...index,
    tasks: index.tasks.map((task): CompactEntry => [
      task.name,
      task.health.status,
      task.latency.oldestWaiting?.since ?? null,
      task.retryingAsOf,
      ...JOB_STATES.map((state) => task.stats[state]),
    ]),
  });
}

/** The index {@link encodeIndex} wrote. */
export function decodeIndex(text: string): LiveIndex {
  const stored = JSON.parse(text) as Omit<LiveIndex, "tasks"> & { tasks: CompactEntry[] };
  return {
    ...stored,
    tasks: stored.tasks.map(([name, status, since, retryingAsOf, ...counts]): LiveIndexEntry => ({
      name,
      stats: Object.fromEntries(JOB_STATES.map((state, i) => [state, counts[i]])) as QueueStats,
      retryingAsOf,
      health: { status },
      latency: { oldestWaiting: since === null ? null : { since } },
    })),
  };
}

/** A value and the text it was parsed from. */
interface Parsed<T> {
  text: string;
  value: T;
}

/** `last` when it was parsed from `text`; else `text` parsed. */
function reused<T>(last: Parsed<T> | null | undefined, text: string, parse: (text: string) => T) {
  return last?.text === text ? last : { text, value: parse(text) };
}

/** The feed's part of the store, on the board's Redis connection. */
export class RedisFeedStore implements FeedStore {
  readonly #connection: RedisConnection;
  readonly #keys: ReturnType<typeof feedKeys>;
  readonly #now: () => number;
  /** When this store last renewed each hash's TTL (its clock). */
  #renewedAt = new Map<string, number>();
  /** What {@link readLiveState} read last, by text. */
  #lastRead: { index: Parsed<LiveIndex> | null; rows: Map<string, Parsed<LiveRow>> } = {
    index: null,
    rows: new Map(),
  };
  /** The state {@link readLiveState} answered last, and the `@write` of the pass it is of. */
  #lastState: { write: string; state: LiveState } | null = null;

  /** Keys under the root of `prefix` (taskora's key prefix); the need judged on `now`. */
  constructor(connection: RedisConnection, prefix?: string, now: () => number = Date.now) {
    this.#connection = connection;
    this.#keys = feedKeys(prefix);
    this.#now = now;
  }

  /** One HGETALL. */
  async readFeedPositions(): Promise<Map<string, string>> {
    return new Map(pairs(await this.#connection.call<string[]>(["HGETALL", this.#keys.ids])));
  }

  /** One HSET (and one HDEL for tasks gone), one round trip. */
  async saveFeedPositions(positions: FeedPositions, removed: readonly string[] = []) {
    const commands: string[][] = [];
    if (positions.size > 0) commands.push(["HSET", this.#keys.ids, ...[...positions].flat()]);
    if (removed.length > 0) commands.push(["HDEL", this.#keys.ids, ...removed]);
    if (commands.length > 0) await this.#written(this.#keys.ids, commands);
  }

  /** One HSET (and one HDEL for tasks gone), one round trip. */
  async writeLiveState({ asOf, index, rows = [], removed = [] }: LiveStateWrite): Promise<void> {
    // Not the asOf: two passes can end at one ms (a new leader's first, fake timers).
    const fields = [AS_OF, String(asOf), WRITE, crypto.randomUUID()];
    if (index) fields.push(INDEX, encodeIndex(index));
    for (const row of rows) fields.push(rowField(row.name), JSON.stringify(row));
    const commands = [["HSET", this.#keys.live, ...fields]];
    if (removed.length > 0) commands.push(["HDEL", this.#keys.live, ...removed.map(rowField)]);
    await this.#written(this.#keys.live, commands);
  }

  /**
   * Sends the writes of `key`, in one round trip with the renewal of its TTL
   * when it is due (at once after the writes: the hash never stands without
   * one between two of discovery's looks).
   */
  async #written(key: string, commands: string[][]): Promise<void> {
    const now = this.#now();
    const renew = now - (this.#renewedAt.get(key) ?? -Infinity) >= FEED_KEYS_RENEW_MS;
    if (renew) commands.push(["PEXPIRE", key, String(FEED_KEYS_TTL_MS)]);
    try {
      await this.#connection.pipeline(commands);
    } finally {
      // Read again at once, not when Redis's invalidation arrives (even after a write unconfirmed).
      this.#connection.forgetTracked(key);
    }
    if (renew) this.#renewedAt.set(key, now);
  }

  /** One HMGET, the marks with the index. */
  async readLiveSummary(): Promise<LiveSummary | null> {
    const [asOf, index, ...values] = await this.#connection.call<(string | null)[]>([
      "HMGET",
      this.#keys.live,
      AS_OF,
      INDEX,
      ...MARKS.map((mark) => `${MARK}${mark}`),
    ]);
    if (asOf === null || index === null) return null;
    const marks: Partial<Record<LiveMark, string>> = {};
    MARKS.forEach((mark, i) => values[i] !== null && (marks[mark] = values[i]!));
    return { asOf: Number(asOf), index: decodeIndex(index), marks };
  }

  /** One HSET (with the hash's TTL when due). */
  async mark(mark: LiveMark): Promise<void> {
    await this.#written(this.#keys.live, [
      ["HSET", this.#keys.live, `${MARK}${mark}`, crypto.randomUUID()],
    ]);
  }

  /** One HMGET (none for no task). */
  async readLiveRows(tasks: readonly string[]): Promise<(LiveRow | null)[]> {
    if (tasks.length === 0) return [];
    const rows = await this.#connection.call<(string | null)[]>([
      "HMGET",
      this.#keys.live,
      ...tasks.map(rowField),
    ]);
    return rows.map((row) => row === null ? null : JSON.parse(row) as LiveRow);
  }

  /**
   * One HGET of `@write`, served from the tracking connection's cache (no
   * command) while Redis has not invalidated the hash since the last read:
   * the state the last call answered while no pass wrote since (an older
   * board's pass writes no `@write`: read whole); else one HGETALL more.
   */
  async readLiveState(): Promise<LiveState | null> {
    const write = await this.#connection.trackedField(this.#keys.live, WRITE);
    const last = this.#lastState;
    if (write !== null && last?.write === write) return last.state;
    const { state, write: read } = await this.#readWholeState();
    this.#lastState = read === null || state === null ? null : { write: read, state };
    return state;
  }

  /**
   * One HGETALL: the state and the `@write` it is of. A row or index whose
   * text is the one the last call read is that call's object, not parsed
   * again (a pass changes a few rows).
   */
  async #readWholeState(): Promise<{ state: LiveState | null; write: string | null }> {
    const fields = await this.#connection.call<string[]>(["HGETALL", this.#keys.live]);
    let write: string | null = null;
    let asOf: string | null = null;
    let index: Parsed<LiveIndex> | null = null;
    const rows = new Map<string, Parsed<LiveRow>>();
    const last = this.#lastRead;
    for (const [field, text] of pairs(fields)) {
      if (field === AS_OF) asOf = text;
      else if (field === WRITE) write = text;
      else if (field === INDEX) index = reused(last.index, text, decodeIndex);
      else if (field.startsWith(ROW)) {
        const task = field.slice(ROW.length);
        rows.set(task, reused(last.rows.get(task), text, JSON.parse));
      }
    }
    // Kept: one entry per task the live state holds, as read last.
    this.#lastRead = { index, rows };
    if (asOf === null || index === null) return { state: null, write };
    const state = {
      asOf: Number(asOf),
      index: index.value,
      rows: new Map([...rows].map(([task, row]) => [task, row.value])),
    };
    return { state, write };
  }

  /** One SET with a TTL: the need lasts `ttlMs` past the last replica's renewal. */
  async noteFeedDemand(ttlMs: number): Promise<void> {
    const ms = Math.max(1, Math.ceil(ttlMs));
    await this.#connection.call([
      "SET",
      this.#keys.demand,
      String(this.#now() + ms),
      "PX",
      String(ms),
    ]);
  }

  /**
   * One GET: needed until the time it holds (an older board's "1" reads as
   * no need: its browsers then read directly until it is upgraded).
   */
  async hasFeedDemand(): Promise<boolean> {
    const until = await this.#connection.call<string | null>(["GET", this.#keys.demand]);
    return until !== null && this.#now() < Number(until);
  }
}

/** `[k1, v1, k2, v2]` as entries. */
function pairs(flat: readonly string[]): [string, string][] {
  const entries: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) entries.push([flat[i], flat[i + 1]]);
  return entries;
}
