/**
 * The live event reader of the Redis source: one dedicated blocking
 * connection that follows every task's `:events` stream with `XREAD BLOCK`
 * and hands each entry to the source's subscribers.
 *
 * - Started by the first subscriber, stopped (its connection closed) by the
 *   last unsubscribe. The first subscriber's events start at the moment its
 *   run started (Redis `TIME`, asked over the command connection before the
 *   blocking one is made), never replaying history. Runs that follow each
 *   other while someone is subscribed (the change feed's tail below taking
 *   over, then handing back) read on from what the subscribers were last
 *   given: nothing written in between is lost or given twice.
 * - The stream set follows task discovery: the task list is rediscovered
 *   every `refreshMs` (one SCAN, shared with the source's own discovery), and
 *   the next XREAD (at most a block later) includes the new streams. A new
 *   stream is read from the reader's start, so the first events of a task
 *   that appeared meanwhile are not lost.
 * - A dropped connection, a timeout or a Redis restart: the connection is
 *   thrown away and a new one made after a backoff (100 ms doubling, at most
 *   5 s); reading resumes from the last entry id seen per stream, so nothing
 *   still in the streams is lost.
 *
 * Cost while idle: one XREAD per `followBlockMs` (default 10 s) on one
 * connection (a tail, per `blockMs`: 2 s), plus one SCAN per `refreshMs`.
 *
 * The change feed reads the same way through {@link RedisEventReader.tail},
 * on a connection of its own, but from given ids (the last it delivered, as
 * saved in the board's store) and a batch at a time: each read's entries are
 * handed over together and the next read waits until they were taken. A
 * stream that trimmed past its given id (its first entry is newer: taskora's
 * `MAXLEN ~` dropped entries never delivered) is named in the batch of the
 * first read that returned entries for it, so that the feed reads that task
 * in full (one XRANGE per such stream; a stream with nothing after its id
 * was not trimmed past it, so a resume checks only the streams that moved,
 * not every one). Its reads do not block until one reached the end of every
 * stream (`caughtUp`): a feed resumed after a lapse learns at once, from the
 * entries written meanwhile, which tasks moved, before its first pass.
 *
 * Once caught up, a read that returned entries is followed by a gathering
 * pause (`gatherMs`, 250 ms, on the board's clock) before the next XREAD,
 * as Kafka's `fetch.max.wait.ms` batches a consumer's fetches: a blocking
 * XREAD answers with the first new entry, so a busy keyspace cost one XREAD
 * (and one batch taken) per event, 19 XREADs/s of an open browser at 10
 * tasks moving; now at most 4 a second, whatever the rate. A quiet stream's
 * first event is not delayed (the read blocks and answers at once); only
 * one that follows a batch within the pause waits for it. A read that
 * filled its `count` (a backlog) is followed at once, and an abort ends the
 * pause at once. The subscribers' own reading (a follower's browsers)
 * gathers the same way, and so do the Cluster's polling rounds: a round
 * that found entries is followed by the next after the pause, where it was
 * followed at once.
 *
 * On Redis Cluster one command may not name keys of several slots (CROSSSLOT,
 * even on one node), and every task is its own slot, so no XREAD can block
 * on two tasks' streams. There the reader polls instead ({@link pollStreams}):
 * one non-blocking XREAD per stream, sent through the command connection,
 * which routes each to its master and pipelines those of one master into one
 * round trip. A round that finds events is followed by the next after the
 * gathering pause; an empty one by a pause of `pollMs` (default 250), twice
 * as long after each further empty round, up to `idlePollMs` (default 1000).
 * A busy cluster is followed within 250 ms, and the first event after a
 * quiet spell within a second. Cost while idle: one round trip per master
 * and one XREAD per task every `idlePollMs`.
 *
 * @module
 */

import type { EventBatch, TaskEvent } from "../types.ts";
import { decodeEventFields } from "../wire/event_fields.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisClientLike } from "./client.ts";
import { pause } from "./pacer.ts";

/**
 * The gathering pause after a read that returned entries, ms. A job event
 * must reach an open browser within 1 s: one written just after a read waits
 * at most this pause, then an XREAD's round trip, then the hub's flush
 * spacing (at once for one browser, at most `maxBatchMs`, 250 ms, for many):
 * about 500 ms at worst, half the bound. It caps a busy keyspace's XREADs at
 * 4 a second; the hub flushes on the same 250 ms.
 */
export const GATHER_MS = 250;

/** Options of {@link RedisEventReader}. */
export interface EventReaderOptions {
  /** taskora's key prefix. */
  prefix?: string;
  /** `XREAD BLOCK` timeout of a tail (the change feed's passes wait on it), ms (default 2000, at most 5000). */
  blockMs?: number;
  /**
   * `XREAD BLOCK` timeout of the subscribers' own reading, ms (default
   * 10,000): a reply comes at once with the first new entry, and with none
   * only a new task's stream waits for the next read (its entries from the
   * reader's start are read then, none lost), so a quiet reader of a board
   * that does not lead sends one XREAD a lease period, not one every 2 s.
   */
  followBlockMs?: number;
  /** Entries read per stream per XREAD (default 500). */
  count?: number;
  /**
   * Gathering pause after a read that returned entries, once caught up, ms
   * (default {@link GATHER_MS}; 0: none).
   */
  gatherMs?: number;
  /** How often the task list is rediscovered while reading, ms (default 5000). */
  refreshMs?: number;
  /** Longest wait for a connection or a non-blocking reply, ms (default 2000). */
  timeoutMs?: number;
  /** Pause after a polling round that found nothing (cluster), ms (default 250). */
  pollMs?: number;
  /** Longest pause between polling rounds, reached after empty rounds (cluster), ms (default 1000). */
  idlePollMs?: number;
}

/** What the reader needs from the source. */
export interface EventReaderDeps {
  /**
   * Makes a new client for the blocking connection (not connected yet); null
   * when the streams cannot share one XREAD (Redis Cluster): then the reader
   * polls through `pipeline`.
   */
  createClient: (() => RedisClientLike) | null;
  /** Sends commands through the command connection, each to the node of its key. */
  pipeline: (commands: string[][]) => Promise<unknown[]>;
  /** The cached task list. */
  listTasks: () => Promise<string[]>;
  /** Rediscovers the task list now. */
  refreshTasks: () => Promise<string[]>;
  /** Waits `ms` or until `signal` aborts (default: a timer); a test passes its own to see the pauses. */
  pause?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Waits the gathering pause, or until `signal` aborts (default: `pause`):
   * the source's is on the board's clock, so that a test's fake clock holds it.
   */
  gather?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A stream entry as XREAD returns it: id and flat field list. */
type RawEntry = [id: string, fields: string[]];
/** XREAD's reply: per stream with new entries, its key and entries; null on timeout. */
type XReadReply = [key: string, entries: RawEntry[]][] | null;

/** How one run of the reader reads new entries; release gives it back. */
interface StreamSource {
  /** New entries after the given id of each stream (null: none), waiting for some when `block`. */
  read(
    streams: ReadonlyMap<string, string>,
    signal: AbortSignal,
    block: boolean,
  ): Promise<XReadReply>;
  /** Closes what the run opened. */
  release(): void;
}

/** Longest pause between two reconnection attempts, ms. */
export const MAX_BACKOFF_MS = 5000;

/** Pause before the n-th (1-based) reconnection attempt: 100 ms doubling, capped. */
export function backoffDelay(failures: number): number {
  return Math.min(100 * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);
}

/** An event read from a stream: it has its entry's id. */
export type StreamEvent = TaskEvent & { id: string };

/** A batch of such events. */
type StreamBatch = Omit<EventBatch, "events"> & { events: StreamEvent[] };

/** Turns one stream entry into a {@link TaskEvent}, its fields decoded. */
export function toTaskEvent(task: string, id: string, flat: readonly string[]): StreamEvent {
  const fields: Record<string, string> = {};
  let event = "";
  let jobId = "";
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [name, value] = [flat[i], flat[i + 1]];
    if (name === "event") event = value;
    else if (name === "jobId") jobId = value;
    else fields[name] = value;
  }
  return {
    task,
    event,
    jobId,
    fields: decodeEventFields(fields),
    at: Number(id.slice(0, id.indexOf("-"))),
    id,
  };
}

/**
 * One `XREAD COUNT n BLOCK ms STREAMS k1 … kn id1 … idn` over every stream.
 * The blocking connection is busy until it answers (new entries, or null
 * after `blockMs`); with `blockMs` null it answers at once.
 */
export async function readStreams(
  client: RedisClientLike,
  streams: ReadonlyMap<string, string>,
  count: number,
  blockMs: number | null,
): Promise<XReadReply> {
  return await client.sendCommand<XReadReply>([
    "XREAD",
    "COUNT",
    String(count),
    ...blockMs === null ? [] : ["BLOCK", String(blockMs)],
    "STREAMS",
    ...streams.keys(),
    ...streams.values(),
  ]);
}

/**
 * One non-blocking `XREAD COUNT n STREAMS key id` per stream, all sent at
 * once through `pipeline` (on a cluster, one round trip per master), merged
 * into one XREAD reply; null when none had new entries.
 */
export async function pollStreams(
  pipeline: (commands: string[][]) => Promise<unknown[]>,
  streams: ReadonlyMap<string, string>,
  count: number,
): Promise<XReadReply> {
  const replies = await pipeline(
    [...streams].map(([key, id]) => ["XREAD", "COUNT", String(count), "STREAMS", key, id]),
  );
  const merged = replies.flatMap((reply) => (reply as XReadReply) ?? []);
  return merged.length > 0 ? merged : null;
}

/** Whether stream id `a` comes after `b` (`<ms>-<seq>`). */
export function idAfter(a: string, b: string): boolean {
  const [aMs, aSeq = "0"] = a.split("-");
  const [bMs, bSeq = "0"] = b.split("-");
  return Number(aMs) > Number(bMs) || (aMs === bMs && Number(aSeq) > Number(bSeq));
}

/**
 * Of the streams given an id, those whose first entry is newer than it:
 * taskora's cap dropped entries after the id, never delivered. One XRANGE
 * per stream, one pipeline (one round trip per master on a cluster).
 */
export async function trimmedPast(
  pipeline: (commands: string[][]) => Promise<unknown[]>,
  streams: ReadonlyMap<string, string>,
): Promise<string[]> {
  const keys = [...streams.keys()];
  if (keys.length === 0) return [];
  const firsts = await pipeline(keys.map((key) => ["XRANGE", key, "-", "+", "COUNT", "1"]));
  return keys.filter((key, i) => {
    const first = (firsts[i] as RawEntry[] | null)?.[0]?.[0];
    return first !== undefined && idAfter(first, streams.get(key)!);
  });
}

/** What one run of the read loop does with each reply, and from where each stream starts. */
interface Follower {
  /** Task → the id to read after; a task not in it starts at `since`. */
  from: ReadonlyMap<string, string>;
  /** The id after which a stream not in `from` is read; null: where the run starts. */
  since: string | null;
  /** Task → an id to check for a trim past it, once, before reading on (none when absent). */
  trims?: ReadonlyMap<string, string>;
  /** Takes one read's entries (none after a quiet `blockMs`); the next read waits for it. */
  take(batch: StreamBatch): void | Promise<void>;
  /** The run's start on the server's clock, as a stream id (`<ms>-0`). */
  started?(at: string): void;
  /** How long each XREAD blocks, ms. */
  blockMs: number;
  /**
   * Whether its reads wait for nothing until one reached the end of every
   * stream (a tail resumed from saved ids says so at once); else they block
   * from the first (the subscribers' own reading).
   */
  catchUp?: boolean;
}

/** Rejects after `ms` unless `work` settles first. */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    work.catch(() => {});
  }
}

/** Closes a client at once (rejecting a blocked XREAD); a closed one is left alone. */
function destroy(client: RedisClientLike): void {
  try {
    if (client.isOpen) client.destroy();
  } catch {
    // already closed
  }
}

/**
 * The shared reader: any number of subscribers, one blocking connection
 * while at least one is subscribed, none otherwise.
 */
export class RedisEventReader {
  readonly #deps: EventReaderDeps;
  readonly #prefix?: string;
  readonly #blockMs: number;
  readonly #followBlockMs: number;
  readonly #count: number;
  readonly #gatherMs: number;
  readonly #refreshMs: number;
  readonly #timeoutMs: number;
  readonly #pollMs: number;
  readonly #idlePollMs: number;
  readonly #pause: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #gather: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #listeners = new Set<(event: TaskEvent) => void>();
  #run: { stop: AbortController; done: Promise<void> } | null = null;
  /** Tails running: while one does, it feeds the subscribers too (one connection, not two). */
  #tails = 0;
  /**
   * What the subscribers were given: where their reading started (an id
   * after which every stream is theirs; null before any run started) and
   * the last entry given per task. A run, the subscribers' own or a tail,
   * reads on from here, so none loses what was written as the other stopped.
   */
  #given: { since: string | null; ids: Map<string, string> } = { since: null, ids: new Map() };
  #connections = 0;

  /** Creates the reader; nothing runs until the first subscriber. */
  constructor(deps: EventReaderDeps, options: EventReaderOptions = {}) {
    this.#deps = deps;
    this.#prefix = options.prefix;
    this.#blockMs = Math.min(options.blockMs ?? 2000, 5000);
    this.#followBlockMs = options.followBlockMs ?? 10_000;
    this.#count = options.count ?? 500;
    this.#gatherMs = options.gatherMs ?? GATHER_MS;
    this.#refreshMs = options.refreshMs ?? 5000;
    this.#timeoutMs = options.timeoutMs ?? 2000;
    this.#pollMs = options.pollMs ?? 250;
    this.#idlePollMs = Math.max(this.#pollMs, options.idlePollMs ?? 1000);
    this.#pause = deps.pause ?? pause;
    this.#gather = deps.gather ?? this.#pause;
  }

  /** Whether the read loop runs. */
  get running(): boolean {
    return this.#run !== null;
  }

  /** Blocking connections open right now (0 or 1). */
  get connections(): number {
    return this.#connections;
  }

  /** Subscribers right now. */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Adds a subscriber (starting the loop for the first); returns the unsubscribe function. */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    const wrapped = (event: TaskEvent) => listener(event);
    // A first subscriber reads from now on, not from where the last one left.
    if (this.#listeners.size === 0) this.#given = { since: null, ids: new Map() };
    this.#listeners.add(wrapped);
    if (this.#run === null && this.#tails === 0) this.#start();
    return () => {
      if (this.#listeners.delete(wrapped) && this.#listeners.size === 0) void this.#halt();
    };
  }

  /** Drops every subscriber and stops the loop, closing its connection. */
  async close(): Promise<void> {
    this.#listeners.clear();
    await this.#halt();
  }

  /**
   * Reads every task's stream from the id `from` gives it (a task without
   * one: from when the tail started), handing each read's entries to
   * `take` as one batch and reading on once it settles, until `signal`
   * aborts; reconnects as the shared reader does. Resolves once stopped.
   *
   * While it runs it is the reader's one connection: it reads each stream
   * from the earlier of its given id and what the subscribers were last
   * given, so that the subscribers get every entry after theirs (one
   * written while the tail took over too) and `take` only those after its
   * own; their loop resumes from where the tail left them when it stops.
   */
  async tail(
    from: ReadonlyMap<string, string>,
    take: (batch: EventBatch) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    this.#tails++;
    await this.#halt();
    const given = this.#given;
    const readFrom = new Map(given.ids);
    for (const [task, id] of from) {
      const theirs = given.ids.get(task) ?? given.since;
      readFrom.set(task, theirs !== null && idAfter(id, theirs) ? theirs : id);
    }
    /** Where the tail started: a stream without a given id is the feed's from there on. */
    let start = "";
    /** The tasks without a given id whose position (the tail's start) was taken. */
    const placed = new Set<string>();
    try {
      await this.#loop(signal, {
        from: readFrom,
        since: given.since,
        trims: from,
        started: (at) => start = at,
        blockMs: this.#blockMs,
        catchUp: true,
        take: async ({ events, tasks, trimmed, caughtUp }) => {
          const theirs = (task: string) => this.#given.ids.get(task) ?? this.#given.since ?? start;
          for (const event of events) if (idAfter(event.id, theirs(event.task))) this.#emit(event);
          const ours = events.filter((event) => idAfter(event.id, from.get(event.task) ?? start));
          // A task without a given id is followed from the tail's start: its position until its
          // first entry, so that a feed resumed later knows it missed nothing of a quiet task.
          const unplaced = tasks.filter((task) => !from.has(task) && !placed.has(task));
          const positions = new Map(unplaced.map((task) => [task, start]));
          for (const event of ours) positions.set(event.task, event.id);
          await take({ events: ours, positions, tasks, trimmed, caughtUp });
          for (const task of unplaced) placed.add(task);
        },
      });
    } finally {
      // Subscribers who came while it ran were given what it read from its start on.
      this.#given.since ??= start || null;
      if (--this.#tails === 0 && this.#listeners.size > 0 && this.#run === null) this.#start();
    }
  }

  #start(): void {
    const stop = new AbortController();
    const given = this.#given;
    const follower: Follower = {
      from: new Map(given.ids),
      since: given.since,
      started: (at) => given.since ??= at,
      take: ({ events }) => events.forEach((event) => this.#emit(event)),
      blockMs: this.#followBlockMs,
    };
    this.#run = { stop, done: this.#loop(stop.signal, follower) };
  }

  async #halt(): Promise<void> {
    const run = this.#run;
    if (run === null) return;
    this.#run = null;
    run.stop.abort();
    await run.done;
  }

  #emit(event: StreamEvent): void {
    this.#given.ids.set(event.task, event.id);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error("queue-board: an event listener threw", error);
      }
    }
  }

  /** How this run reads: a blocking connection of its own, or polls (cluster). */
  async #open(signal: AbortSignal, blockMs: number): Promise<StreamSource> {
    const pipeline = this.#deps.pipeline;
    if (this.#deps.createClient === null) {
      let wait = this.#pollMs;
      return {
        read: async (streams, signal, block) => {
          const reply = await pollStreams(pipeline, streams, this.#count);
          if (reply !== null) {
            wait = this.#pollMs;
            return reply;
          }
          if (!block) return null;
          await this.#pause(wait, signal);
          wait = Math.min(wait * 2, this.#idlePollMs);
          return null;
        },
        release: () => {},
      };
    }
    const client = await this.#connect(this.#deps.createClient(), signal);
    return {
      read: (streams, _signal, block) =>
        within(
          readStreams(client, streams, this.#count, block ? blockMs : null),
          (block ? blockMs : 0) + this.#timeoutMs,
          "Redis did not answer XREAD",
        ),
      release: client.release,
    };
  }

  /** Connects the blocking client, or fails after the timeout. */
  async #connect(
    client: RedisClientLike,
    signal: AbortSignal,
  ): Promise<RedisClientLike & { release(): void }> {
    client.on("error", () => {});
    this.#connections++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#connections--;
      destroy(client);
    };
    const onAbort = () => release();
    signal.addEventListener("abort", onAbort);
    try {
      await within(client.connect(), this.#timeoutMs, "Redis did not accept a connection");
      return Object.assign(client, { release });
    } catch (error) {
      release();
      throw error;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  async #loop(signal: AbortSignal, follower: Follower): Promise<void> {
    let source: StreamSource | null = null;
    const onAbort = () => source?.release();
    signal.addEventListener("abort", onAbort);
    /** Stream key → last entry id read; streams not in it start at `startId`. */
    const lastIds = new Map<string, string>();
    const taskOf = new Map<string, string>();
    /** Streams given an id not yet checked for a trim past it. */
    const unchecked = new Map<string, string>();
    for (const [task, id] of follower.from) lastIds.set(taskKeys(task, this.#prefix).events, id);
    for (const [task, id] of follower.trims ?? []) {
      unchecked.set(taskKeys(task, this.#prefix).events, id);
    }
    let startId: string | null = null;
    let refreshedAt = 0;
    let failures = 0;
    /** Whether a read reached the end of every stream: from then on, reads block. */
    let caughtUp = !follower.catchUp;
    try {
      while (!signal.aborted) {
        try {
          if (startId === null) {
            // Over the command connection, before a blocking one is made: a run stopped while
            // it connects (the feed taking over) has its start all the same.
            const [[seconds, micros]] = await this.#deps.pipeline([["TIME"]]) as [string, string][];
            const startMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
            follower.started?.(`${startMs}-0`);
            startId = follower.since ?? `${startMs}-0`;
          }
          source ??= await this.#open(signal, follower.blockMs);
          const fresh = Date.now() - refreshedAt >= this.#refreshMs;
          const tasks = fresh ? await this.#deps.refreshTasks() : await this.#deps.listTasks();
          if (fresh) refreshedAt = Date.now();
          const streams = new Map<string, string>();
          for (const task of tasks) {
            const key = taskKeys(task, this.#prefix).events;
            taskOf.set(key, task);
            streams.set(key, lastIds.get(key) ?? startId);
          }
          if (signal.aborted) break;
          if (streams.size === 0) {
            // Nothing to read is the end of every stream: the feed need not wait for one.
            if (!caughtUp) {
              await follower.take({
                events: [],
                positions: new Map(),
                tasks,
                trimmed: [],
                caughtUp: true,
              });
              caughtUp = true;
            }
            await this.#pause(follower.blockMs, signal);
            continue;
          }
          const reply = await source.read(streams, signal, caughtUp);
          failures = 0;
          // Checked once per given id, at the first read that returned entries after it: a stream
          // with none after its id was not trimmed past it (a trim past it leaves newer entries).
          // After the read, so that a trim between the two names the stream (read whole), never
          // hides one.
          const given = new Map<string, string>();
          for (const [key] of reply ?? []) {
            if (unchecked.has(key)) given.set(key, unchecked.get(key)!);
          }
          const trimmed = (await trimmedPast(this.#deps.pipeline, given))
            .map((key) => taskOf.get(key)!);
          const ended = (reply ?? []).every(([, entries]) => entries.length < this.#count);
          const events: StreamEvent[] = [];
          const positions = new Map<string, string>();
          const readTo = new Map<string, string>();
          for (const [key, entries] of reply ?? []) {
            const task = taskOf.get(key)!;
            for (const [id, flat] of entries) {
              readTo.set(key, id);
              positions.set(task, id);
              events.push(toTaskEvent(task, id, flat));
            }
          }
          await follower.take({ events, positions, tasks, trimmed, caughtUp: ended });
          // Only a batch taken moves the ids on: one whose taking failed (the history's
          // store away) is read again after the back-off.
          for (const [key, id] of readTo) lastIds.set(key, id);
          for (const key of given.keys()) unchecked.delete(key);
          caughtUp ||= ended;
          // Entries written meanwhile come in one read (see GATHER_MS); a backlog is read on at once.
          if (reply !== null && ended && this.#gatherMs > 0) {
            await this.#gather(this.#gatherMs, signal);
          }
        } catch {
          if (signal.aborted) break;
          // The connection may hold a half-read reply or a blocked XREAD: replace it.
          source?.release();
          source = null;
          failures++;
          await this.#pause(backoffDelay(failures), signal);
        }
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      source?.release();
    }
  }
}
