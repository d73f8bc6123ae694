/**
 * The connection to Redis: connecting, reconnecting, timeouts, pipelines and
 * Lua scripts, and the mapping of every connection failure to
 * {@link StoreUnavailableError} (nothing was sent, or a read went
 * unanswered) or {@link OutcomeUnknownError} (a write was sent and not
 * confirmed).
 *
 * Every other file of the Redis source talks to Redis through
 * {@link RedisConnection.pipeline}: one call is one round trip.
 *
 * @module
 */

import { ClientClosedError, ClientOfflineError, createClient, ErrorReply } from "redis";
import { OutcomeUnknownError, StoreUnavailableError } from "../../errors.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * What the source needs of a node-redis v5 client. A client made by
 * `createClient()` from `redis` fits it.
 */
export interface RedisClientLike {
  /** Connecting or connected (not closed). */
  readonly isOpen: boolean;
  /** Connected and usable. */
  readonly isReady: boolean;
  /** Sends one raw command. */
  sendCommand<T = unknown>(args: ReadonlyArray<string>): Promise<T>;
  /** Opens the connection. */
  connect(): Promise<unknown>;
  /** Closes it gracefully. */
  close(): Promise<unknown>;
  /** Closes it at once. */
  destroy(): void;
  /** Adds an event listener (`ready`, `error`, ...). */
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** Removes an event listener. */
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** A call of one of our Lua scripts; all its keys belong to one `{task}` slot. */
export interface ScriptCall {
  /** The script to run. */
  script: LuaScript;
  /** Its KEYS, all of one slot. */
  keys: string[];
  /** Its ARGV. */
  args: (string | number)[];
}

/** A raw command (`["HGETALL", key]`) or a script call. */
export type Command = readonly string[] | ScriptCall;

/** Options of {@link RedisConnection}. */
export interface ConnectionOptions {
  /** Redis URL, used when no client is given (default `redis://127.0.0.1:6379`). */
  url?: string;
  /** A node-redis client of the caller's; it is neither connected twice nor closed by us. */
  client?: RedisClientLike;
  /** Longest wait for a connection or a reply, ms (default 2000). */
  commandTimeoutMs?: number;
}

/** Longest pause between two reconnection attempts, ms. */
const MAX_RECONNECT_DELAY_MS = 2000;

function reconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS);
}

function isScriptCall(command: Command): command is ScriptCall {
  return !Array.isArray(command);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether a batch changes the keyspace: it calls a script that {@link LuaScript.writes}. */
function writes(commands: readonly Command[]): boolean {
  return commands.some((command) => isScriptCall(command) && command.script.writes === true);
}

/** node-redis refused the command before queueing it: it never reached the socket. */
function neverSent(error: StoreUnavailableError): boolean {
  return error.cause instanceof ClientOfflineError || error.cause instanceof ClientClosedError;
}

/**
 * One command client with fail-fast semantics: the offline queue is off, so
 * while Redis is unreachable every call rejects (after at most
 * `commandTimeoutMs`) with {@link StoreUnavailableError}, and node-redis keeps
 * reconnecting in the background (backoff capped at two seconds).
 *
 * A batch that writes (calls a script marked {@link LuaScript.writes}) and
 * was handed to the socket but not answered in time, or whose connection
 * dropped before the answer, rejects with {@link OutcomeUnknownError}
 * instead: Redis may have run it, or may run it later (a failover pauses
 * writes with `CLIENT PAUSE WRITE` and runs them when it resumes).
 */
export class RedisConnection {
  /** The node-redis client in use. */
  readonly client: RedisClientLike;
  readonly #owned: boolean;
  readonly #timeoutMs: number;
  readonly #shas = new Map<LuaScript, Promise<string>>();
  readonly #readyListeners = new Set<() => void>();
  #closed = false;
  /** The last connection attempt failed or the connection dropped: fail fast until 'ready'. */
  #down = false;

  /** Creates the connection and, for a client of its own, starts connecting. */
  constructor(options: ConnectionOptions = {}) {
    this.#timeoutMs = options.commandTimeoutMs ?? 2000;
    if (options.client) {
      this.client = options.client;
      this.#owned = false;
    } else {
      this.client = createClient({
        url: options.url ?? "redis://127.0.0.1:6379",
        disableOfflineQueue: true,
        socket: {
          connectTimeout: this.#timeoutMs,
          reconnectStrategy: reconnectDelay,
        },
      }) as unknown as RedisClientLike;
      this.#owned = true;
      // Stays after close(): a late 'error' event must not crash the process.
      this.client.on("error", () => {});
    }
    // Also keeps node-redis 'error' events from crashing the process.
    this.client.on("error", this.#onError);
    this.client.on("ready", this.#onReady);
    // connect() settles only once connected; failures are retried by node-redis.
    if (!this.client.isOpen) this.client.connect().catch(() => {});
  }

  /** Whether the client is connected right now. */
  get connected(): boolean {
    return this.client.isReady;
  }

  /** Calls `listener` after every (re)connection; returns the unsubscribe function. */
  onReconnect(listener: () => void): () => void {
    this.#readyListeners.add(listener);
    return () => this.#readyListeners.delete(listener);
  }

  #onError = (): void => {
    this.#down = true;
  };

  #onReady = (): void => {
    this.#down = false;
    for (const listener of this.#readyListeners) listener();
  };

  /** Resolves once connected; rejects with StoreUnavailableError after the timeout. */
  async ready(): Promise<void> {
    if (this.#closed) throw new StoreUnavailableError("The Redis source is closed");
    if (this.client.isReady) return;
    if (!this.client.isOpen) {
      throw new StoreUnavailableError("The Redis client is closed");
    }
    if (this.#down) throw new StoreUnavailableError("Redis is not reachable (reconnecting)");
    let onReady = (): void => {};
    const connected = new Promise<void>((resolve) => {
      onReady = () => resolve();
      this.client.on("ready", onReady);
    });
    try {
      await this.#within(connected, "Redis is not reachable");
    } finally {
      this.client.off("ready", onReady);
    }
  }

  /**
   * Sends the commands as one pipeline (one round trip) and returns each
   * reply, or the error Redis answered that command with. Script calls go
   * as EVALSHA; a script Redis does not know yet (NOSCRIPT, e.g. after a
   * restart) is loaded and its calls are sent again.
   */
  async pipelineSettled(commands: readonly Command[]): Promise<unknown[]> {
    if (commands.length === 0) return [];
    await this.ready();
    const argv = await Promise.all(commands.map((command) => this.#toArgs(command)));
    const write = writes(commands);
    let replies = await this.#send(argv, write);
    const missing = commands
      .map((command, index) => ({ command, index }))
      .filter(({ index }) =>
        replies[index] instanceof Error && describe(replies[index]).startsWith("NOSCRIPT")
      );
    if (missing.length > 0) {
      const scripts = [...new Set(missing.map(({ command }) => (command as ScriptCall).script))];
      // NOSCRIPT: those calls did not run, so loading their scripts writes nothing of ours.
      await this.#send(scripts.map((script) => ["SCRIPT", "LOAD", script.source]), false);
      const retried = await this.#send(missing.map(({ index }) => argv[index]), write);
      replies = [...replies];
      missing.forEach(({ index }, i) => replies[index] = retried[i]);
    }
    return replies;
  }

  /** Like {@link pipelineSettled}, but rejects when Redis answered any command with an error. */
  async pipeline(commands: readonly Command[]): Promise<unknown[]> {
    const replies = await this.pipelineSettled(commands);
    const failed = replies.find((reply) => reply instanceof Error);
    if (failed) throw failed;
    return replies;
  }

  /** One command, one round trip. */
  async call<T = unknown>(command: Command): Promise<T> {
    const [reply] = await this.pipeline([command]);
    return reply as T;
  }

  /** Stops using the client; closes it only when this connection created it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.client.off("ready", this.#onReady);
    this.client.off("error", this.#onError);
    if (!this.#owned) return;
    if (this.client.isReady) {
      await this.client.close().catch(() => this.client.destroy());
    } else if (this.client.isOpen) {
      this.client.destroy();
    }
  }

  async #toArgs(command: Command): Promise<string[]> {
    if (!isScriptCall(command)) return [...command];
    const sha = await this.#sha(command.script);
    return [
      "EVALSHA",
      sha,
      String(command.keys.length),
      ...command.keys,
      ...command.args.map(String),
    ];
  }

  #sha(script: LuaScript): Promise<string> {
    let sha = this.#shas.get(script);
    if (!sha) {
      sha = crypto.subtle.digest("SHA-1", new TextEncoder().encode(script.source)).then((buf) =>
        [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("")
      );
      this.#shas.set(script, sha);
    }
    return sha;
  }

  /**
   * Writes all commands in the same tick, which node-redis sends as one
   * batch (one round trip). Replies that are Redis errors are returned as
   * values; a connection failure or timeout rejects the whole batch, with
   * {@link OutcomeUnknownError} when the batch `writes` and may have reached
   * Redis.
   */
  async #send(argv: readonly string[][], writes: boolean): Promise<unknown[]> {
    if (!this.client.isReady) throw new StoreUnavailableError("Redis is not reachable");
    const sent = argv.map((args) =>
      this.client.sendCommand(args).then(
        (reply) => reply,
        (error: unknown) => {
          if (error instanceof ErrorReply) return new Error(error.message);
          throw error;
        },
      )
    );
    try {
      return await this.#within(Promise.all(sent), "Redis did not answer");
    } catch (error) {
      if (!writes || !(error instanceof StoreUnavailableError) || neverSent(error)) throw error;
      throw new OutcomeUnknownError(
        `Redis did not confirm the change (${error.message}): it may have been applied, or ` +
          "may still be once Redis resumes. Check before retrying.",
        { cause: error },
      );
    }
  }

  /** Races `work` against the command timeout; connection errors become StoreUnavailableError. */
  async #within<T>(work: Promise<T>, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreUnavailableError(`${what} within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    try {
      return await Promise.race([work, timeout]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(`Redis is unavailable: ${describe(error)}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      // A batch that lost the race may still reject later; nobody awaits it.
      work.catch(() => {});
    }
  }
}
