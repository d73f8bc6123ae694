/**
 * Reads of a key that Redis says when to make again (server-assisted
 * client-side caching): a connection of their own, in RESP3 with `CLIENT
 * TRACKING ON` ({@link Topology.trackingClient}), whose node-redis cache
 * answers a read it made before without a round trip until Redis invalidates
 * the key (a write from any connection, an expiry, a flush). The command
 * connection expects RESP2 replies, so it cannot be the one that tracks.
 *
 * node-redis drops the cache when the tracking connection errs or closes,
 * and turns tracking on again when it reconnects; a read it had in flight
 * when its key was invalidated is not kept. So a value served from the cache
 * is the one Redis holds, but for an invalidation still on its way.
 *
 * A read's answer is kept here too, frozen, while the cache has dropped
 * nothing of its key since it was read (`counted_cache.ts`): answered again
 * as the same object, with none of a cache hit's command path and copy, so
 * that what a caller built from it can be known unchanged by identity.
 *
 * @module
 */

import { StoreUnavailableError } from "../../errors.ts";
import type { CommandDeadlines } from "./deadlines.ts";
import type { Topology, TrackingClient } from "./topology.ts";

/**
 * How many reads the cache keeps: the board tracks four (the live state's
 * `@write`, `store/redis/feed.ts`; the schedules hash, the next-run set and
 * the board runs' version, `schedules.ts` and `store/redis/board_runs.ts`);
 * two to spare, so a read tracked later does not push one of them out
 * unnoticed. Never more: each is one key's answer.
 */
export const TRACKED_READS_MAX = 6;

/**
 * A read the tracking connection serves, written as the command connection
 * sends it (its fallback): answered as RESP2 answers it there.
 */
export type TrackedRead =
  | readonly ["HGET", string, string]
  | readonly ["HGETALL", string]
  | readonly ["ZRANGE", string, "0", "-1", "WITHSCORES"]
  | readonly ["GET", string];

/** `read` over `client`, through its cache. */
function readOver(client: TrackingClient, read: TrackedRead): Promise<unknown> {
  switch (read[0]) {
    case "HGET":
      return client.hGet(read[1], read[2]);
    case "HGETALL":
      return client.hGetAll(read[1]);
    case "ZRANGE":
      return client.zRangeWithScores(read[1]);
    case "GET":
      return client.get(read[1]);
  }
}

/** A read's answer, and the mark of its key taken before it was read. */
interface KeptAnswer {
  mark: number;
  value: unknown;
}

/** The tracking connection of one {@link Topology}, made at its first read. */
export class TrackedFields {
  readonly #topology: Topology;
  readonly #deadlines: CommandDeadlines;
  /** Not made yet (undefined): a board that never reads a tracked field opens no connection for it. */
  #client: TrackingClient | null | undefined;
  /** Settles once the first connection attempt ends, within the command timeout. */
  #firstConnection: Promise<void> | null = null;
  #closed = false;
  /** The answers read, by read (at most {@link TRACKED_READS_MAX}). */
  readonly #kept = new Map<string, KeptAnswer>();

  /** On the servers of `topology`; each read bounded by `deadlines`. */
  constructor(topology: Topology, deadlines: CommandDeadlines) {
    this.#topology = topology;
    this.#deadlines = deadlines;
  }

  /**
   * `read` from the cache, or over the tracking connection while Redis has
   * not invalidated its key: the same frozen answer while the cache dropped
   * nothing of the key since. Undefined when the tracking connection cannot
   * serve (not connected, the topology cannot make one, a failure that is
   * not a timeout): the caller reads on its command connection, which says
   * why it failed if it does.
   */
  async read(read: TrackedRead): Promise<unknown> {
    const client = this.#client === undefined ? this.#connect() : this.#client;
    if (client === null) return undefined;
    if (!client.isReady) {
      // The first read waits for the first connection; later a reconnecting client is passed by.
      await this.#firstConnection;
      if (!client.isReady) return undefined;
    }
    const id = read.join("\n");
    const kept = this.#kept.get(id);
    if (kept !== undefined && client.unchangedSince(read[1], kept.mark)) return kept.value;
    const mark = client.mark(read[1]);
    let value: unknown;
    try {
      value = await this.#deadlines.within(readOver(client, read), "Redis did not answer");
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      return undefined;
    }
    this.#keep(id, { mark, value: Object.freeze(value) });
    return value;
  }

  /** Keeps `answer` of read `id`, the oldest kept answer dropped past the most kept. */
  #keep(id: string, answer: KeptAnswer): void {
    this.#kept.delete(id);
    this.#kept.set(id, answer);
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= TRACKED_READS_MAX) break;
      this.#kept.delete(oldest);
    }
  }

  /** Drops what the cache holds of `key`: written by this board, invalidated by Redis later. */
  forget(key: string): void {
    this.#client?.forget(key);
  }

  /** Closes the tracking connection at once: what it has in flight is a read only. */
  close(): void {
    this.#closed = true;
    if (!this.#client) return;
    try {
      this.#client.destroy();
    } catch {
      // never connected, or closed already
    }
  }

  #connect(): TrackingClient | null {
    if (this.#closed) return null;
    const client = this.#topology.trackingClient(TRACKED_READS_MAX);
    this.#client = client;
    if (client !== null) {
      // node-redis keeps reconnecting after a failed first attempt.
      this.#firstConnection = this.#deadlines
        .within(client.connect(), "Redis is not reachable")
        .then(() => {}, () => {});
    }
    return client;
  }
}
