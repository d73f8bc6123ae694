/**
 * An ioredis client (what taskora's Redis adapter holds) seen as the
 * node-redis shaped {@link RedisClientLike} the Redis source talks to, so
 * the board reuses the App's connection: the operator configures Redis once.
 *
 * The board never closes the App's client (the source treats a client it
 * was given as borrowed); the duplicates it makes for its blocking event
 * reader are its own.
 *
 * @module
 */

import { ErrorReply } from "redis";
import type { RedisClientLike } from "../source/redis/client.ts";

/** What the board uses of an ioredis `Redis` instance. */
export interface IoredisLike {
  /** `wait`, `connecting`, `connect`, `ready`, `reconnecting`, `close` or `end`. */
  readonly status: string;
  /** Sends any command (`call("HGET", key, field)`). */
  call(command: string, ...args: string[]): Promise<unknown>;
  /** Opens the connection (only from `wait`, or `end` for a duplicate). */
  connect(): Promise<unknown>;
  /** Closes gracefully. */
  quit(): Promise<unknown>;
  /** Closes at once; `false`: no reconnection. */
  disconnect(reconnect?: boolean): void;
  /** A new client with the same options. */
  duplicate(): IoredisLike;
  /** Node EventEmitter methods. */
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  /** Pub/sub (ioredis puts the connection in subscriber mode). */
  subscribe(channel: string): Promise<unknown>;
}

/** Whether `value` looks like an ioredis client (a `Redis`, or a `Cluster` with `isCluster`). */
export function isIoredis(value: unknown): value is IoredisLike & { isCluster?: boolean } {
  const v = value as Partial<IoredisLike> | null;
  return typeof v === "object" && v !== null && typeof v.call === "function" &&
    typeof v.duplicate === "function" && typeof v.status === "string";
}

/** A {@link RedisClientLike} that can also listen to one pub/sub channel. */
export interface SubscribableClient extends RedisClientLike {
  /** A new client on the same server (the event reader's blocking connection). */
  duplicate(): SubscribableClient;
  /** Subscribes this connection to `channel` (it can then only listen). */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
}

/**
 * Wraps an ioredis client. Redis error replies become node-redis
 * `ErrorReply`s, which the source reports per command as node-redis does;
 * any other failure (connection) rejects the call as it would there.
 *
 * @example
 * ```ts ignore
 * const client = fromIoredis(app.adapter.driver.raw);
 * const source = createRedisSource({ client, prefix: app.adapter.prefix });
 * ```
 */
export function fromIoredis(redis: IoredisLike): SubscribableClient {
  return {
    get isOpen() {
      return redis.status !== "wait" && redis.status !== "end";
    },
    get isReady() {
      return redis.status === "ready";
    },
    sendCommand<T>(args: ReadonlyArray<string>): Promise<T> {
      const [command, ...rest] = args;
      return redis.call(command, ...rest).then(
        (reply) => reply as T,
        (error: unknown) => {
          if (error instanceof Error && error.name === "ReplyError") {
            throw new ErrorReply(error.message);
          }
          throw error;
        },
      );
    },
    connect() {
      if (redis.status === "wait") return redis.connect();
      if (redis.status === "ready") return Promise.resolve();
      if (redis.status === "end") {
        return Promise.reject(new Error("The ioredis client was closed by its owner"));
      }
      return new Promise<void>((resolve, reject) => {
        const onReady = () => {
          redis.off("end", onEnd);
          resolve();
        };
        const onEnd = () => {
          redis.off("ready", onReady);
          reject(new Error("The ioredis client closed"));
        };
        redis.once("ready", onReady);
        redis.once("end", onEnd);
      });
    },
    close: () => redis.quit(),
    destroy: () => redis.disconnect(false),
    on(event, listener) {
      return redis.on(event, listener);
    },
    off(event, listener) {
      return redis.off(event, listener);
    },
    duplicate: () => fromIoredis(redis.duplicate()),
    async subscribe(channel, listener) {
      redis.on("message", (from: unknown, message: unknown) => {
        if (from === channel) listener(String(message));
      });
      await redis.subscribe(channel);
    },
  };
}
