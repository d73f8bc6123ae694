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

import { createHash } from "node:crypto";
import { ClientClosedError, ClientOfflineError, ErrorReply } from "redis";
import { OutcomeUnknownError, StoreUnavailableError } from "../../errors.ts";
import { systemTimers } from "../../timers.ts";
import { CommandDeadlines } from "./deadlines.ts";
import type { LuaScript } from "./scripts.ts";
import { TrackedFields, type TrackedRead } from "./tracked_fields.ts";
import {
  ClusterTopology,
  type CommandTarget,
  type RedisClusterConfig,
  type RedisSentinelConfig,
  SentinelTopology,
  serverClient,
  ServerTopology,
  type Topology,
  type TopologyTiming,
} from "./topology.ts";

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

/** Options of {@link RedisConnection}: at most one of `url`, `client`, `cluster`, `sentinel`. */
export interface ConnectionOptions {
  /** Redis URL, used when nothing else is given (default `redis://127.0.0.1:6379`). */
  url?: string;
  /** A node-redis client of the caller's; it is neither connected twice nor closed by us. */
  client?: RedisClientLike;
  /** A Redis Cluster (node-redis `createCluster`). */
  cluster?: RedisClusterConfig;
  /** The master of a Sentinel set (node-redis `createSentinel`). */
  sentinel?: RedisSentinelConfig;
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

/** Commands of ours that name no key: on a cluster they may go to any node. */
const KEYLESS = new Set(["INFO", "TIME", "PING", "SCAN", "SCRIPT", "DBSIZE"]);

/** A command ready to send: its argv and the key that routes it (its first). */
interface Routed {
  key: string | undefined;
  args: string[];
  /** Sent to this node instead of the one serving `key`. */
  node?: CommandTarget;
}

/** Commands whose first key follows a subcommand (`MEMORY USAGE key`). */
const SUBCOMMANDS = new Set(["MEMORY", "OBJECT", "XINFO"]);

/** The routing key of a raw command: its first key, or none. */
export function firstKey(args: readonly string[]): string | undefined {
  const name = args[0].toUpperCase();
  if (KEYLESS.has(name)) return undefined;
  if (SUBCOMMANDS.has(name)) return args[2];
  if (name === "XREAD") return args[args.findIndex((arg) => arg.toUpperCase() === "STREAMS") + 1];
  return args[1];
}

/**
 * Error replies that say the command was not run because the store cannot
 * serve it right now: a cluster without a master for some slot, a slot
 * being moved, a node loading its data, a replica (after a failover) refusing
 * a write. They fail the batch with {@link StoreUnavailableError}.
 */
const UNAVAILABLE_REPLIES = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY|UNBLOCKED)\b/;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether a batch changes the keyspace: it calls a script that {@link LuaScript.writes}. */
function writes(commands: readonly Command[]): boolean {
  return commands.some((command) => isScriptCall(command) && command.script.writes === true);
}

/** The command never ran: node-redis refused it before the socket, or Redis refused to run it. */
function neverRan(error: unknown): boolean {
  return error instanceof ClientOfflineError || error instanceof ClientClosedError ||
    (error instanceof ErrorReply && UNAVAILABLE_REPLIES.test(error.message));
}

/** A command that got no answer, or an answer saying it was not run; an error reply is its answer. */
function failsTheBatch(result: PromiseSettledResult<unknown>): result is PromiseRejectedResult {
  return result.status === "rejected" &&
    !(result.reason instanceof ErrorReply && !neverRan(result.reason));
}

/** A command's reply, or the error Redis answered it with (as a plain Error). */
function replyOf(result: PromiseSettledResult<unknown>): unknown {
  if (result.status === "fulfilled") return result.value;
  return new Error((result.reason as ErrorReply).message);
}

/** A reply saying the script called is not loaded on that node. */
function isNoScript(reply: unknown): boolean {
  return reply instanceof Error && reply.message.startsWith("NOSCRIPT");
}

/** Makes the topology the options name. */
function topologyOf(options: ConnectionOptions, timing: TopologyTiming): Topology {
  const given = [options.url, options.client, options.cluster, options.sentinel]
    .filter((option) => option !== undefined);
  if (given.length > 1) {
    throw new TypeError(
      "queue-board: give the Redis source one of url, client, cluster or sentinel",
    );
  }
  if (options.cluster) return new ClusterTopology(options.cluster, timing);
  if (options.sentinel) return new SentinelTopology(options.sentinel, timing);
  return new ServerTopology(
    options.client ?? serverClient(options.url ?? "redis://127.0.0.1:6379", timing),
  );
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
  /** Where the commands go: one server, a cluster, or a sentinel set's master. */
  readonly topology: Topology;
  readonly #owned: boolean;
  readonly #timeoutMs: number;
  readonly #deadlines: CommandDeadlines;
  readonly #shas = new Map<LuaScript, string>();
  /**
   * The scripts one server (not a cluster) ran or loaded since this
   * connection's last (re)connection: the others are loaded ahead of their
   * first calls, in the same round trip.
   */
  readonly #loaded = new Set<LuaScript>();
  readonly #readyListeners = new Set<() => void>();
  #closed = false;
  /** The last connection attempt failed or the connection dropped: fail fast until 'ready'. */
  #down = false;
  /** What requests waiting for a connection await (null: none waits). */
  #nextReady: Promise<void> | null = null;
  /**
   * The last batch went unanswered (timed out, or its connection failed):
   * until one is answered, no read is served from the tracking cache.
   */
  #unanswered = false;
  readonly #tracked: TrackedFields;

  /** Creates the connection and, for a client of its own, starts connecting. */
  constructor(options: ConnectionOptions = {}) {
    this.#timeoutMs = options.commandTimeoutMs ?? 2000;
    this.#deadlines = new CommandDeadlines(systemTimers, this.#timeoutMs);
    this.topology = topologyOf(options, {
      connectTimeoutMs: this.#timeoutMs,
      reconnectDelay,
    });
    this.#owned = options.client === undefined;
    // Stays after close(): a late 'error' event must not crash the process.
    if (this.#owned) this.topology.on("error", () => {});
    // Also keeps node-redis 'error' events from crashing the process.
    this.topology.on("error", this.#onError);
    this.topology.on("ready", this.#onReady);
    this.#tracked = new TrackedFields(this.topology, this.#deadlines);
    // connect() settles only once connected; failures are retried by node-redis.
    if (!this.topology.isOpen) this.topology.connect().catch(() => {});
  }

  /** Whether the client is connected right now. */
  get connected(): boolean {
    return this.topology.isReady;
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
    // Perhaps another server now (a restart, a failover): it may know none of them.
    this.#loaded.clear();
    for (const listener of this.#readyListeners) listener();
  };

  /** Open and connected: a batch goes without awaiting {@link ready} (a promise per read). */
  get #usable(): boolean {
    return !this.#closed && this.topology.isReady;
  }

  /** Resolves once connected; rejects with StoreUnavailableError after the timeout. */
  async ready(): Promise<void> {
    if (this.#closed) throw new StoreUnavailableError("The Redis source is closed");
    if (this.topology.isReady) return;
    if (!this.topology.isOpen) {
      throw new StoreUnavailableError("The Redis client is closed");
    }
    if (this.#down) throw new StoreUnavailableError("Redis is not reachable (reconnecting)");
    await this.#deadlines.within(this.#connected(), "Redis is not reachable");
  }

  /**
   * Resolves at the next 'ready'. Every request waiting meanwhile shares one
   * listener: one each would pass node's limit of ten (a warning printed)
   * whenever more requests than that arrive before a (re)connection.
   */
  #connected(): Promise<void> {
    if (this.#nextReady === null) {
      const { promise, resolve } = Promise.withResolvers<void>();
      const onReady = () => {
        this.topology.off("ready", onReady);
        this.#nextReady = null;
        resolve();
      };
      this.topology.on("ready", onReady);
      this.#nextReady = promise;
    }
    return this.#nextReady;
  }

  /**
   * Sends the commands as one pipeline (one round trip) and returns each
   * reply, or the error Redis answered that command with. Script calls go
   * as EVALSHA; a script Redis does not know yet (NOSCRIPT, e.g. after a
   * restart) is loaded and its calls are sent again.
   */
  async pipelineSettled(commands: readonly Command[]): Promise<unknown[]> {
    if (commands.length === 0) return [];
    if (!this.#usable) await this.ready();
    const routed = commands.map((command) => this.#route(command));
    const write = writes(commands);
    const ahead = this.#loadsAhead(commands);
    let replies = await this.#send([...ahead, ...routed], write);
    if (ahead.length > 0) replies = replies.slice(ahead.length);
    this.#noteLoaded(commands, replies);
    if (replies.some(isNoScript)) {
      const missing = commands
        .map((command, index) => ({ command, index }))
        .filter(({ index }) => isNoScript(replies[index]));
      // Loaded on the node that answered NOSCRIPT: the one serving the call's first key. One
      // server knows a script once loaded whatever the key: loading it per key sent its source
      // once per task (3,073 loads in a first page of 1,000 tasks).
      const sharded = this.topology.sharded;
      const loads = new Map<string, Routed>();
      for (const { command, index } of missing) {
        const { script } = command as ScriptCall;
        const key = routed[index].key;
        const where = sharded ? `${script.name}\0${key}` : script.name;
        loads.set(where, { key, args: ["SCRIPT", "LOAD", script.source] });
      }
      // NOSCRIPT: those calls did not run, so loading their scripts writes nothing of ours.
      await this.#send([...loads.values()], false);
      const retried = await this.#send(missing.map(({ index }) => routed[index]), write);
      replies = [...replies];
      missing.forEach(({ index }, i) => replies[index] = retried[i]);
      this.#noteLoaded(missing.map(({ command }) => command), retried);
    }
    return replies;
  }

  /**
   * A `SCRIPT LOAD` for each script of `commands` one server has not run or
   * loaded yet, sent before them in their round trip: else each of its calls
   * is answered NOSCRIPT and sent again (a just-started board's first pass at
   * 1,000 tasks: 2,000 failed calls, each an error in Redis's `errorstats`).
   * A cluster loads on the node that answers NOSCRIPT (see
   * {@link pipelineSettled}): one load per node would need each call's node.
   */
  #loadsAhead(commands: readonly Command[]): Routed[] {
    if (this.topology.sharded) return [];
    const unknown = new Set<LuaScript>();
    for (const command of commands) {
      if (isScriptCall(command) && !this.#loaded.has(command.script)) unknown.add(command.script);
    }
    return [...unknown].map((script) => ({
      key: undefined,
      args: ["SCRIPT", "LOAD", script.source],
    }));
  }

  /** Notes the scripts whose calls ran (answered other than NOSCRIPT) on one server. */
  #noteLoaded(commands: readonly Command[], replies: readonly unknown[]): void {
    if (this.topology.sharded) return;
    commands.forEach((command, index) => {
      if (isScriptCall(command) && !isNoScript(replies[index])) this.#loaded.add(command.script);
    });
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
    const [reply] = await this.pipelineSettled([command]);
    if (reply instanceof Error) throw reply;
    return reply as T;
  }

  /**
   * One field of a hash, from the tracking connection's cache while Redis
   * has not invalidated `key` since it was read ({@link trackedRead}).
   */
  async trackedField(key: string, field: string): Promise<string | null> {
    return await this.trackedRead(["HGET", key, field]) as string | null;
  }

  /**
   * `read`'s answer from the tracking connection's cache while Redis has
   * not invalidated its key since it was read: no round trip
   * (`tracked_fields.ts`). Read over this connection instead while it is not
   * connected, or its last batch went unanswered (a Redis that stops
   * answering but keeps its sockets open closes nothing that would drop the
   * cache), or the tracking connection cannot serve: so Redis down still
   * fails the read.
   */
  async trackedRead(read: TrackedRead): Promise<unknown> {
    if (this.#usable && !this.#unanswered) {
      const value = await this.#tracked.read(read);
      if (value !== undefined) return value;
    }
    return await this.call(read);
  }

  /**
   * Drops the tracking cache's reads of `key`, written over this connection:
   * Redis's invalidation arrives on the other connection, maybe after this
   * board's next read.
   */
  forgetTracked(key: string): void {
    this.#tracked.forget(key);
  }

  /** The masters (one, unless on a cluster), for {@link callOn}. */
  async masters(): Promise<CommandTarget[]> {
    if (!this.#usable) await this.ready();
    try {
      return await this.#deadlines.within(
        this.topology.masters(),
        "Redis did not connect every master",
      );
    } catch (error) {
      this.topology.failed();
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(`Redis is unavailable: ${describe(error)}`, { cause: error });
    }
  }

  /** One read-only command on one node of {@link masters} (SCAN walks each). */
  async callOn<T = unknown>(node: CommandTarget, args: readonly string[]): Promise<T> {
    if (!this.#usable) await this.ready();
    const [reply] = await this.#send([{ key: undefined, args: [...args], node }], false);
    if (reply instanceof Error) throw reply;
    return reply as T;
  }

  /** Stops using the client; closes it only when this connection created it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#tracked.close();
    this.#deadlines.close();
    this.topology.off("ready", this.#onReady);
    this.topology.off("error", this.#onError);
    if (!this.#owned) return;
    if (this.topology.isReady) {
      // A graceful close waits for what is in flight; one that does not end within the command
      // timeout (a Sentinel client mid-failover never did: a CI run hung 10 minutes in it) is
      // cut, so closing the board always ends.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const graceful = this.topology.close().then(() => true, () => false);
      const cut = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), this.#timeoutMs);
      });
      const closed = await Promise.race([graceful, cut]);
      clearTimeout(timer);
      if (!closed) this.topology.destroy();
    } else if (this.topology.isOpen) {
      this.topology.destroy();
    }
  }

  #route(command: Command): Routed {
    if (!isScriptCall(command)) return { key: firstKey(command), args: [...command] };
    return {
      key: command.keys[0],
      args: [
        "EVALSHA",
        this.#sha(command.script),
        String(command.keys.length),
        ...command.keys,
        ...command.args.map(String),
      ],
    };
  }

  /** The script's SHA-1, computed once (synchronously, so routing a batch awaits nothing). */
  #sha(script: LuaScript): string {
    let sha = this.#shas.get(script);
    if (sha === undefined) {
      sha = createHash("sha1").update(script.source).digest("hex");
      this.#shas.set(script, sha);
    }
    return sha;
  }

  /**
   * Writes all commands in the same tick, which node-redis sends as one
   * batch per node (one round trip). Replies that are Redis errors are
   * returned as values; a connection failure, a timeout or a reply saying
   * the store cannot serve now ({@link UNAVAILABLE_REPLIES}) rejects the
   * whole batch: with {@link OutcomeUnknownError} when the batch `writes`
   * and any of its commands may have run (on a cluster, one node may have
   * run its part while another was down), else with
   * {@link StoreUnavailableError}.
   */
  async #send(routed: readonly Routed[], writes: boolean): Promise<unknown[]> {
    if (!this.topology.isReady) throw new StoreUnavailableError("Redis is not reachable");
    const sent = Promise.allSettled(
      routed.map(({ key, args, node }) =>
        node ? node.sendCommand(args) : this.topology.send(key, args)
      ),
    );
    let settled: PromiseSettledResult<unknown>[];
    try {
      settled = await this.#deadlines.within(sent, "Redis did not answer");
    } catch (error) {
      this.#unanswered = true;
      this.topology.failed();
      if (!writes) throw error;
      throw this.#unconfirmed(error as StoreUnavailableError);
    }
    const failed = settled.find(failsTheBatch);
    this.#unanswered = failed !== undefined;
    if (!failed) return settled.map(replyOf);
    this.topology.failed();
    const error = new StoreUnavailableError(`Redis is unavailable: ${describe(failed.reason)}`, {
      cause: failed.reason,
    });
    const allRefused = settled.every((result) =>
      result.status === "rejected" && neverRan(result.reason)
    );
    if (!writes || allRefused) throw error;
    throw this.#unconfirmed(error);
  }

  #unconfirmed(error: StoreUnavailableError): OutcomeUnknownError {
    return new OutcomeUnknownError(
      `Redis did not confirm the change (${error.message}): it may have been applied, or ` +
        "may still be once Redis resumes. Check before retrying.",
      { cause: error },
    );
  }
}
