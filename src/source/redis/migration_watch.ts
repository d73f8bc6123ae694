/**
 * Watching taskora's migration lock: reading it (one GET and one PTTL, one
 * round trip) before every mutation, and listening on
 * `migration:broadcast`, where a migrator publishes whenever it takes or
 * frees the lock, so the wire-version verdict is checked again at once
 * rather than kept until a reconnection.
 *
 * @module
 */

import type { MigrationLock } from "../../contract/migration_lock.ts";
import { decodeMigrationLock } from "../wire/migration_lock.ts";
import { globalKeys } from "../wire/keys.ts";
import type { RedisClientLike, RedisConnection } from "./client.ts";

/** A client that can listen to a channel (node-redis v5, or the App's ioredis adapter). */
interface Subscriber extends RedisClientLike {
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
}

function canSubscribe(client: RedisClientLike): client is Subscriber {
  return typeof (client as { subscribe?: unknown }).subscribe === "function";
}

/** Reads the lock and calls `onChange` when a broadcast or a read says it changed. */
export class MigrationWatch {
  readonly #connection: RedisConnection;
  readonly #prefix?: string;
  readonly #onChange: () => void;
  #held = false;
  #listening = false;
  #subscriber: Subscriber | null = null;
  #closed = false;

  /** `onChange` runs on every broadcast and whenever a read finds the lock taken or freed. */
  constructor(connection: RedisConnection, prefix: string | undefined, onChange: () => void) {
    this.#connection = connection;
    this.#prefix = prefix;
    this.#onChange = onChange;
  }

  /** The lock when it halts writers like the board, else null. Starts listening on first use. */
  async read(): Promise<MigrationLock | null> {
    if (!this.#listening) {
      this.#listening = true;
      this.#listen();
    }
    const key = globalKeys(this.#prefix).migrationLock;
    const [raw, pttl] = await this.#connection.pipeline([["GET", key], ["PTTL", key]]) as [
      string | null,
      number,
    ];
    const lock = decodeMigrationLock(raw, Number(pttl));
    if ((lock !== null) !== this.#held) {
      this.#held = lock !== null;
      this.#onChange();
    }
    return lock;
  }

  /**
   * One subscriber connection (the topology's blocking client); without one
   * (a cluster has none), reads alone notice changes.
   */
  async #listen(): Promise<void> {
    try {
      const client = this.#connection.topology.blockingClient();
      if (client === null || !canSubscribe(client)) return;
      const subscriber = this.#subscriber = client;
      subscriber.on("error", () => {});
      await subscriber.connect();
      await subscriber.subscribe(globalKeys(this.#prefix).migrationChannel, () => this.#onChange());
    } catch {
      // Reads before each mutation still see the lock; the next read tries to listen again.
      if (!this.#closed) {
        this.#drop();
        this.#listening = false;
      }
    }
  }

  #drop(): void {
    const subscriber = this.#subscriber;
    this.#subscriber = null;
    if (subscriber?.isOpen) subscriber.destroy();
  }

  /** Closes the subscriber connection. */
  close(): void {
    this.#closed = true;
    this.#drop();
  }
}
