/**
 * The event hub of one board: every connected SSE client, one source
 * subscription and one stats poll shared by all of them.
 *
 * Lifecycle
 * - The first client subscribes the hub to the source (for Redis: the one
 *   blocking XREAD connection of the board) and starts two timers: the
 *   stats poll (`statsIntervalMs`, 3 s) and the heartbeat (`heartbeatMs`,
 *   15 s). Further clients add nothing but their queue.
 * - A stats poll sends the live state the leader keeps (`../store/feed.ts`)
 *   while it is at most one lease period old (`LIVE_FRAME_MAX_AGE_MS`, 10 s:
 *   a pass may outlast an interval, and the frame says its age): one store read, whatever
 *   the number of tasks, on the leader and every other board alike, the
 *   frame's `at` its `asOf` (see `live_stats.ts`); while nothing moved
 *   since, a poll sends the same frame again and reads nothing, until the
 *   state would be a lease period old. Only when it is older
 *   (no leader keeps it, or the store holds none) does the poll read the
 *   counts itself: then it rereads only the tasks that had events since the
 *   last one (a count changes with an event), and every task every
 *   `fullStatsEveryMs` (30 s: what changes without an event, such as
 *   retention trimming a finished set). Either way its Redis cost does not
 *   follow the number of clients: an idle keyspace of 20 tasks read
 *   directly costs 20 × 8 O(1) commands per 30 s (≈ 5/s), whether 1 or
 *   1,000 clients watch.
 * - When the last client leaves, both timers stop at once; the source
 *   subscription is kept for `idleStopMs` (5 s) so a page reload or a
 *   reconnecting browser does not reopen the Redis connection, then dropped.
 * - `close()` (from `board.close()`) ends every stream, clears every timer
 *   and drops the subscription.
 *
 * Bounds
 * - Each event (decoded by the source) is presented and framed once.
 *   Frames are flushed to the clients together: every client without a
 *   `?tasks` filter queues the same joined bytes and writes them in one write. Flushes are spaced so
 *   that all clients together make at most ~20,000 writes/s (1 client: no
 *   wait; 1,000 clients: one flush per 50 ms); a quiet stream flushes at
 *   once. Per-write overhead, not bytes, is what costs CPU at 1,000 clients:
 *   at 2,000 events/s, 20,000 writes/s took the board 43–46 % of a core and
 *   delivered with p99 70–98 ms; 40,000 took 74 % and p99 107–121 ms, the
 *   saturated machine delaying every write (`tests/bench/sse.ts`). A client's queue holds at most `maxQueue` frames (1,000):
 *   a client that falls further behind is disconnected (the browser
 *   reconnects after the `retry:` hint) instead of growing memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createEventHub } from "./hub.ts";
 * import { createPresenter } from "../contract/present.ts";
 * import { createMemorySource } from "../source/memory/mod.ts";
 *
 * const hub = createEventHub(createMemorySource(), createPresenter({ formatters: {}, redact: [] }));
 * const client = hub.connect();
 * const frames = await client.next(); // the retry hint, then a stats:update
 * assert.ok(frames && frames.length > 0);
 * client.close();
 * await hub.close();
 * ```
 *
 * @module
 */

import type { AlertSilence, AlertStatus } from "../contract/alerts.ts";
import type { StatsPayload } from "../contract/events.ts";
import { alertsFrameKey, alertsFrameOf } from "./alerts_frame.ts";
import { LIVE_FRAME_MAX_AGE_MS, readFreshSummary } from "../feed/live_read.ts";
import { liveStatsPayload } from "./live_stats.ts";
import type { Presenter } from "../contract/present.ts";
import { totalsOf } from "../contract/totals.ts";
import type { QueueStats, TaskEvent, TaskSource } from "../source/types.ts";
import type { BoardStore } from "../store/types.ts";
import type { LiveMark } from "../store/feed.ts";
import { jobEventName, jobEventPayload, withoutEventPayloads } from "./frames.ts";
import { epochClock, systemTimers, type TimerId, type Timers } from "../timers.ts";
import { frameMessage, PING_FRAME, retryFrame } from "./sse.ts";

/** Options of {@link createEventHub}. */
export interface EventHubOptions {
  /** How often `stats:update` is sent, ms (default 3000). */
  statsIntervalMs?: number;
  /** How often the `: ping` comment is sent, ms (default 15,000). */
  heartbeatMs?: number;
  /** Frames a client may have queued before it is disconnected (default 1000). */
  maxQueue?: number;
  /** The reconnection time suggested to browsers, ms (default 3000). */
  retryMs?: number;
  /** How long the source subscription outlives the last client, ms (default 5000). */
  idleStopMs?: number;
  /**
   * Writes per second the hub aims to stay under, over all clients
   * (default 20,000). Each flush writes once per client, so flushes are
   * spaced `clients / writesPerSecond` apart (1 client: at once; 1,000
   * clients: 50 ms), at most `maxBatchMs`. A quiet stream sends each event
   * at once.
   */
  writesPerSecond?: number;
  /** Longest spacing between two flushes, ms (default 250). */
  maxBatchMs?: number;
  /**
   * How often a stats poll rereads every task, ms (default 30,000); the
   * polls between reread only the tasks that had events.
   */
  fullStatsEveryMs?: number;
  /** The clock and timers every interval above runs on (default the runtime's; tests pass fake ones). */
  timers?: Timers;
  /**
   * Called at each stats poll while a client is connected: the board's
   * change feed notes that someone watches.
   */
  watched?: () => void;
  /**
   * Whether a live state of `asOf` was written after the last change this
   * board made (default: always): one written before is not sent, so that
   * whoever made a change sees it in the next frame (see `OwnChanges`).
   */
  liveSeen?: (asOf: number) => boolean;
  /**
   * Told the marks of each fresh live state a stats poll read (see
   * `LiveMark`): what other replicas changed, learnt from the read the
   * frame needs anyway.
   */
  liveMarks?: (marks: Partial<Record<LiveMark, string>>) => void;
  /**
   * Whether this board leads the boards on its store now. The leader shares
   * each stats frame it reads (`shareResult`); the others, while a frame
   * the leader shared is at most two intervals old, send it instead of
   * reading the counts themselves: N boards read the counts once.
   */
  leads?: () => boolean;
  /**
   * Where the leader shares its stats frames, the change feed keeps the
   * live state and the alert evaluator its states: without it the hub reads
   * and sends its own frames only.
   */
  store?: Pick<
    BoardStore,
    "shareResult" | "readSharedResult" | "readAlertStatus" | "listAlertSilences" | "feed"
  >;
  /**
   * Whether the board has alerts: then clients get the `alerts` frame. The
   * leading evaluator hands each pass's states over
   * ({@link EventHub.alertsEvaluated}); the other boards read the states in
   * the store with each stats poll (while a client is connected).
   */
  alerts?: boolean;
  /**
   * Whether this board's alert evaluator leads (its own lease, not the
   * board's: see `ALERTS_LEASE`): then it hands its passes over. Default: never.
   */
  evaluatesAlerts?: () => boolean;
}

/** The name a leader's stats frame is shared under. */
const SHARED_STATS = "stats";

/** What a client receives: job events of some tasks (all when null), with or without payloads. */
export interface ConnectOptions {
  /** Only job events of these tasks; stats frames stay complete. */
  tasks?: ReadonlySet<string> | null;
  /**
   * Whether the client's user may read payloads (default true). False: job
   * events carry no result or other value of the job, and a progress only
   * as a list row shows it (see `withoutEventPayloads`).
   */
  payloads?: boolean;
}

/** Why a client's stream ended. */
export type CloseReason = "client" | "overflow" | "hub";

/** One connected client, as the route sees it. */
export interface EventClient {
  /** Waits for frames and returns all queued ones, oldest first; null once closed. */
  next(): Promise<Uint8Array[] | null>;
  /** Ends the client (idempotent) and releases what it holds. */
  close(reason?: CloseReason): void;
  /** Calls `listener` once when the client closes, whoever closes it. */
  onClose(listener: (reason: CloseReason) => void): void;
  /** Whether it is closed. */
  readonly closed: boolean;
}

/** What the hub holds right now: for tests and leak checks. */
export interface HubState {
  /** Connected clients. */
  clients: number;
  /** Timers the hub has pending (stats, heartbeat, idle stop): 0 when idle and released. */
  timers: number;
  /** Whether the hub is subscribed to the source. */
  subscribed: boolean;
  /** Frames queued over all clients. */
  queued: number;
}

/** What a client without payloads gets of a frame only users with payloads may see. */
const NO_FRAME = new Uint8Array(0);

class Client implements EventClient {
  readonly tasks: ReadonlySet<string> | null;
  readonly payloads: boolean;
  readonly #max: number;
  readonly #release: (client: Client) => void;
  #queue: Uint8Array[] = [];
  /** Frames in the queue (one chunk may hold several). */
  #frames = 0;
  #wake: (() => void) | null = null;
  #closed = false;
  #onClose: ((reason: CloseReason) => void) | null = null;

  constructor(
    tasks: ReadonlySet<string> | null,
    payloads: boolean,
    max: number,
    release: (client: Client) => void,
  ) {
    this.tasks = tasks;
    this.payloads = payloads;
    this.#max = max;
    this.#release = release;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get queued(): number {
    return this.#frames;
  }

  /**
   * Queues a chunk of `frames` frames. A client that still has frames queued
   * and would go past the bound is disconnected; an empty queue takes any
   * chunk (its client keeps up, however large a burst is).
   */
  push(chunk: Uint8Array, frames = 1): void {
    if (this.#closed) return;
    if (this.#frames > 0 && this.#frames + frames > this.#max) return this.close("overflow");
    this.#queue.push(chunk);
    this.#frames += frames;
    this.#wake?.();
  }

  async next(): Promise<Uint8Array[] | null> {
    while (this.#queue.length === 0) {
      if (this.#closed) return null;
      await new Promise<void>((resolve) => this.#wake = resolve);
      this.#wake = null;
    }
    const chunks = this.#queue;
    this.#queue = [];
    this.#frames = 0;
    return chunks;
  }

  onClose(listener: (reason: CloseReason) => void): void {
    this.#onClose = listener;
  }

  close(reason: CloseReason = "client"): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#frames = 0;
    this.#wake?.();
    this.#release(this);
    const listener = this.#onClose;
    this.#onClose = null;
    listener?.(reason);
  }
}

/** Several frames as one chunk. */
export function joinFrames(frames: readonly Uint8Array[]): Uint8Array {
  if (frames.length === 1) return frames[0];
  const bytes = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let offset = 0;
  for (const frame of frames) {
    bytes.set(frame, offset);
    offset += frame.length;
  }
  return bytes;
}

/**
 * The per-board hub; see the module documentation for its lifecycle and
 * bounds.
 */
export class EventHub {
  readonly #source: TaskSource;
  readonly #present: Presenter;
  readonly #statsIntervalMs: number;
  readonly #heartbeatMs: number;
  readonly #maxQueue: number;
  readonly #retryFrame: Uint8Array;
  readonly #idleStopMs: number;
  readonly #writesPerSecond: number;
  readonly #maxBatchMs: number;
  readonly #timers: Timers;
  #lastFlush = -Infinity;
  readonly #clients = new Set<Client>();
  #unsubscribe: (() => void) | null = null;
  #statsTimer: TimerId | null = null;
  #heartbeatTimer: TimerId | null = null;
  #idleTimer: TimerId | null = null;
  /**
   * Frames framed since the last flush (each also as clients without
   * payloads get it: the same bytes when it carries none), and the timer of
   * the next flush.
   */
  #outbox: Array<{ frame: Uint8Array; withoutPayloads: Uint8Array; task?: string }> = [];
  #flushTimer: TimerId | null = null;
  #poll: Promise<void> | null = null;
  readonly #fullStatsEveryMs: number;
  /** When every task was last read (ms). */
  #fullAt = -Infinity;
  /** Tasks with events since their counts were last read. */
  readonly #dirty = new Set<string>();
  /** The last counts read per task. */
  #counts = new Map<string, QueueStats>();
  #pollFailed = false;
  #stats: StatsPayload | null = null;
  #statsFrame: Uint8Array | null = null;
  /** The `asOf` of the live state the last frame sent, or null when it was not the live state's. */
  #liveAsOf: number | null = null;
  /** When this board last saw a count change (a job event, an invalidation), on the epoch's clock. */
  #movedAt = -Infinity;
  readonly #leads: (() => boolean) | null;
  readonly #watched: () => void;
  readonly #store: NonNullable<EventHubOptions["store"]> | null;
  readonly #liveSeen: (asOf: number) => boolean;
  readonly #liveMarks: (marks: Partial<Record<LiveMark, string>>) => void;
  readonly #alerts: boolean;
  readonly #evaluatesAlerts: () => boolean;
  /** The last `alerts` frame (sent to a client as it connects), and what tells it apart. */
  #alertsFrame: Uint8Array | null = null;
  #alertsKey: string | null = null;
  /** The wall clock as the timers move it, to judge how old a shared frame is. */
  readonly #epochNow: () => number;
  #closed = false;

  /** Creates the hub; nothing runs until the first client connects. */
  constructor(source: TaskSource, present: Presenter, options: EventHubOptions = {}) {
    this.#source = source;
    this.#present = present;
    this.#statsIntervalMs = options.statsIntervalMs ?? 3000;
    this.#heartbeatMs = options.heartbeatMs ?? 15_000;
    this.#maxQueue = options.maxQueue ?? 1000;
    this.#retryFrame = retryFrame(options.retryMs ?? 3000);
    this.#idleStopMs = options.idleStopMs ?? 5000;
    this.#writesPerSecond = options.writesPerSecond ?? 20_000;
    this.#maxBatchMs = options.maxBatchMs ?? 250;
    this.#fullStatsEveryMs = options.fullStatsEveryMs ?? 30_000;
    this.#timers = options.timers ?? systemTimers;
    this.#leads = options.leads ?? null;
    this.#watched = options.watched ?? (() => {});
    this.#store = options.store ?? null;
    this.#liveSeen = options.liveSeen ?? (() => true);
    this.#liveMarks = options.liveMarks ?? (() => {});
    this.#alerts = options.alerts ?? false;
    this.#evaluatesAlerts = options.evaluatesAlerts ?? (() => false);
    this.#epochNow = epochClock(this.#timers);
  }

  /** What the hub holds right now. */
  state(): HubState {
    let queued = 0;
    for (const client of this.#clients) queued += client.queued;
    return {
      clients: this.#clients.size,
      timers: [this.#statsTimer, this.#heartbeatTimer, this.#idleTimer, this.#flushTimer]
        .filter((timer) => timer !== null).length,
      subscribed: this.#unsubscribe !== null,
      queued,
    };
  }

  /**
   * Connects a client: its queue starts with the `retry:` hint and the last
   * stats frame (a fresh one follows at once for the first client).
   */
  connect(options: ConnectOptions = {}): EventClient {
    const client = new Client(
      options.tasks && options.tasks.size > 0 ? options.tasks : null,
      options.payloads ?? true,
      this.#maxQueue,
      (gone) => this.#remove(gone),
    );
    if (this.#closed) {
      client.close("hub");
      return client;
    }
    this.#clients.add(client);
    client.push(this.#retryFrame);
    if (this.#statsFrame) client.push(this.#statsFrame);
    if (this.#alertsFrame) client.push(this.#alertsFrame);
    if (this.#clients.size === 1) this.#wake();
    return client;
  }

  /**
   * Marks a task's counts as changed by something that writes no job event
   * (a clean made through this board): the next stats frame rereads them.
   */
  invalidate(task: string): void {
    if (this.#clients.size === 0) return;
    this.#dirty.add(task);
    this.#movedAt = this.#epochNow();
  }

  /**
   * Sends a message of the board itself (a bulk operation's
   * `bulk:progress`) to every client that follows `task`; with
   * `payloadsOnly`, only to those whose user may read payloads (what it
   * says depends on them).
   */
  publish(event: string, data: unknown, task?: string, { payloadsOnly = false } = {}): void {
    if (!payloadsOnly) return this.#send(event, data, task);
    if (this.#clients.size === 0) return;
    this.#post(frameMessage({ event, data: JSON.stringify(data) }), task, NO_FRAME);
  }

  /**
   * Takes the alert states of an evaluation (the leader's own, or read from
   * the store): the `alerts` frame goes to every client once per evaluation
   * (a store read again finds the same one), so its `asOf` says how old the
   * counts are even while they stay, and is kept for clients that connect
   * later. The firing alerts `silences` mute are counted apart.
   */
  alertsEvaluated(status: AlertStatus, silences: readonly AlertSilence[]): void {
    const payload = alertsFrameOf(status, silences);
    if (payload === null || this.#closed) return;
    const key = alertsFrameKey(payload);
    if (key === this.#alertsKey) return;
    this.#alertsKey = key;
    this.#alertsFrame = frameMessage({ event: "alerts", data: JSON.stringify(payload) });
    this.#post(this.#alertsFrame);
  }

  /** Ends every client, stops every timer and the source subscription. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const client of [...this.#clients]) client.close("hub");
    this.#stopSubscription();
    await this.#poll;
    if (this.#flushTimer !== null) this.#timers.clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    this.#outbox = [];
  }

  /** The first client: subscribe (unless still subscribed) and start the timers. */
  #wake(): void {
    if (this.#idleTimer !== null) {
      this.#timers.clearTimeout(this.#idleTimer);
      this.#idleTimer = null;
    }
    try {
      this.#unsubscribe ??= this.#source.subscribe((event) => this.#onEvent(event));
    } catch (error) {
      // No job events then; the stats frames still flow.
      console.error("queue-board: could not subscribe to the source's events", error);
    }
    // Counts kept from before were not followed meanwhile: the first poll reads all.
    this.#fullAt = -Infinity;
    this.#liveAsOf = null;
    const timers = this.#timers;
    this.#statsTimer = timers.setInterval(() => this.#pollStats(), this.#statsIntervalMs);
    this.#heartbeatTimer = timers.setInterval(() => this.#broadcast(PING_FRAME), this.#heartbeatMs);
    this.#pollStats();
  }

  #remove(client: Client): void {
    if (!this.#clients.delete(client) || this.#clients.size > 0) return;
    const timers = this.#timers;
    if (this.#statsTimer !== null) timers.clearInterval(this.#statsTimer);
    if (this.#heartbeatTimer !== null) timers.clearInterval(this.#heartbeatTimer);
    if (this.#flushTimer !== null) timers.clearTimeout(this.#flushTimer);
    this.#statsTimer = this.#heartbeatTimer = this.#flushTimer = null;
    this.#outbox = [];
    if (this.#closed || this.#idleStopMs <= 0) return this.#stopSubscription();
    this.#idleTimer = timers.setTimeout(() => {
      this.#idleTimer = null;
      this.#stopSubscription();
    }, this.#idleStopMs);
  }

  #stopSubscription(): void {
    if (this.#idleTimer !== null) this.#timers.clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #broadcast(frame: Uint8Array): void {
    for (const client of this.#clients) client.push(frame);
  }

  /**
   * Collects a framed message for the next flush. Frames that arrive
   * together (one XREAD reply, a burst of store events) leave together:
   * one chunk and one write per client instead of one per frame.
   */
  #post(frame: Uint8Array, task?: string, withoutPayloads = frame): void {
    if (this.#clients.size === 0) return;
    this.#outbox.push({ frame, withoutPayloads, task });
    if (this.#flushTimer !== null) return;
    const spacing = Math.min(this.#maxBatchMs, (this.#clients.size * 1000) / this.#writesPerSecond);
    const wait = Math.max(0, this.#lastFlush + spacing - this.#timers.now());
    this.#flushTimer = this.#timers.setTimeout(() => this.#flush(), wait);
  }

  #flush(): void {
    this.#flushTimer = null;
    this.#lastFlush = this.#timers.now();
    const outbox = this.#outbox;
    this.#outbox = [];
    if (outbox.length === 0 || this.#clients.size === 0) return;
    // Joined once per flush for each kind of client that needs it, then only read. A frame
    // without payloads may be empty: that kind of client gets nothing of it.
    type Joined = { bytes: Uint8Array; count: number };
    const all = { payloads: null as Joined | null, none: null as Joined | null };
    const join = (payloads: boolean, entries: typeof outbox): Joined => {
      const frames = entries.map((entry) => payloads ? entry.frame : entry.withoutPayloads)
        .filter((frame) => frame.length > 0);
      return { bytes: joinFrames(frames), count: frames.length };
    };
    for (const client of this.#clients) {
      const kind = client.payloads ? "payloads" : "none";
      const joined = client.tasks === null ? all[kind] ??= join(client.payloads, outbox) : join(
        client.payloads,
        outbox.filter(({ task }) => task === undefined || client.tasks!.has(task)),
      );
      if (joined.count > 0) client.push(joined.bytes, joined.count);
    }
  }

  /**
   * Frames a message (synchronously: frames keep their order) and sends it;
   * clients without payloads get `withoutPayloads` instead, when given.
   */
  #send(event: string, data: unknown, task?: string, withoutPayloads?: unknown): void {
    const text = JSON.stringify(data);
    const frame = frameMessage({ event, data: text });
    if (event === "stats:update") this.#statsFrame = frame;
    const other = withoutPayloads === undefined ? text : JSON.stringify(withoutPayloads);
    this.#post(frame, task, other === text ? frame : frameMessage({ event, data: other }));
  }

  #onEvent(event: TaskEvent): void {
    if (this.#clients.size === 0) return;
    this.#dirty.add(event.task);
    this.#movedAt = this.#epochNow();
    const name = jobEventName(event.event);
    if (name === null) return;
    try {
      const payload = jobEventPayload(event, this.#present);
      this.#send(name, payload, event.task, withoutEventPayloads(payload));
    } catch (error) {
      // A formatter threw: this event is dropped, the stream goes on.
      console.error("queue-board: could not present an event", error);
    }
  }

  /** Reads every task's counts (unless a read is under way) and sends them. */
  #pollStats(): void {
    if (this.#clients.size > 0) this.#watched();
    if (this.#poll !== null) return;
    this.#poll = Promise.all([this.#readStats(), this.#readAlerts()]).then(() => {})
      .finally(() => this.#poll = null);
  }

  /**
   * The alert states in the store, on a board that does not lead (the
   * leader hands its own over) or has no frame yet: one read per poll.
   */
  async #readAlerts(): Promise<void> {
    if (!this.#alerts || this.#store === null) return;
    if (this.#evaluatesAlerts() && this.#alertsFrame !== null) return;
    try {
      const [status, silences] = await Promise.all([
        this.#store.readAlertStatus(),
        this.#store.listAlertSilences(),
      ]);
      this.alertsEvaluated(status, silences);
    } catch {
      // The stats frame says the store is down; the last alerts frame stands.
    }
  }

  /** The tasks a poll rereads: all of them now and then, else those with events or never read. */
  #toRead(tasks: readonly string[], now: number): readonly string[] {
    // Without the event subscription, or after a failed poll, changes cannot be told apart.
    const full = now - this.#fullAt >= this.#fullStatsEveryMs || this.#unsubscribe === null ||
      this.#pollFailed;
    if (full) {
      this.#fullAt = now;
      return tasks;
    }
    return tasks.filter((task) => this.#dirty.has(task) || !this.#counts.has(task));
  }

  /** The stats frame the leader shared, when this board follows one and it is fresh; else null. */
  async #sharedStats(): Promise<StatsPayload | null> {
    if (this.#leads === null || this.#store === null || this.#leads()) return null;
    const text = await this.#store.readSharedResult(SHARED_STATS);
    if (text === null) return null;
    const payload = JSON.parse(text) as StatsPayload;
    return this.#epochNow() - payload.at <= 2 * this.#statsIntervalMs ? payload : null;
  }

  /**
   * The stats frame of the live state, when the store keeps one at most
   * {@link LIVE_FRAME_MAX_AGE_MS} (or an interval, if longer) old that saw
   * this board's own changes; else null. The frame's `at` is its `asOf`.
   */
  async #liveStats(): Promise<StatsPayload | null> {
    const feed = this.#store?.feed;
    if (!feed) return null;
    const summary = await readFreshSummary(
      feed,
      this.#epochNow(),
      Math.max(this.#statsIntervalMs, LIVE_FRAME_MAX_AGE_MS),
    );
    if (summary) this.#liveMarks(summary.marks ?? {});
    return summary && this.#liveSeen(summary.asOf) ? liveStatsPayload(summary) : null;
  }

  /**
   * Whether the live state the last frame sent still stands: nothing moved
   * here since its `asOf`, it saw this board's own changes, and it will not
   * be past {@link LIVE_FRAME_MAX_AGE_MS} by the next poll. Then a poll
   * sends that frame again, dated as it was, and reads nothing: a quiet
   * board reads the state every third poll, not every poll (what a watched
   * follower sent most, `tests/bench/replicas.ts`). What changes with no
   * event (the leader's sweep healing a count) shows within that age.
   */
  #liveStands(): boolean {
    const asOf = this.#liveAsOf;
    return asOf !== null && this.#statsFrame !== null && this.#movedAt <= asOf &&
      this.#liveSeen(asOf) &&
      this.#epochNow() - asOf <= LIVE_FRAME_MAX_AGE_MS - this.#statsIntervalMs;
  }

  async #readStats(): Promise<void> {
    if (this.#liveStands()) {
      this.#post(this.#statsFrame!);
      return;
    }
    let payload: StatsPayload;
    this.#liveAsOf = null;
    try {
      const live = await this.#liveStats();
      const counted = live ?? await this.#sharedStats();
      if (counted !== null) {
        // Counts read elsewhere: what this board would have read had it read them itself. Its
        // own, kept from before, were not followed meanwhile: its next read of them reads all.
        this.#stats = counted;
        this.#pollFailed = false;
        this.#fullAt = -Infinity;
        this.#liveAsOf = live?.at ?? null;
        if (this.#clients.size > 0) this.#send("stats:update", counted);
        return;
      }
      const tasks = await this.#source.listTasks();
      const toRead = this.#toRead(tasks, this.#timers.now());
      // Events from here on mark their task for the next poll.
      for (const task of toRead) this.#dirty.delete(task);
      const read = toRead.length > 0 ? await this.#source.getStats([...toRead]) : new Map();
      const counts = new Map<string, QueueStats>();
      for (const task of tasks) counts.set(task, read.get(task) ?? this.#counts.get(task)!);
      this.#counts = counts;
      const asOf = this.#source.retryingAsOf(tasks);
      payload = {
        tasks: tasks.map((name) => ({
          name,
          stats: counts.get(name)!,
          retryingAsOf: asOf.get(name) ?? null,
        })),
        totals: totalsOf(counts.values()),
        connected: true,
        at: Date.now(),
      };
      this.#stats = payload;
      this.#pollFailed = false;
      if (this.#leads?.() && this.#store !== null) {
        await this.#store.shareResult(
          SHARED_STATS,
          JSON.stringify(payload),
          3 * this.#statsIntervalMs,
        );
      }
    } catch (error) {
      this.#pollFailed = true;
      const last = this.#stats;
      payload = {
        tasks: last?.tasks ?? [],
        totals: last?.totals ?? totalsOf([]),
        connected: false,
        error: error instanceof Error ? error.message : String(error),
        at: last?.at ?? Date.now(),
      };
    }
    if (this.#clients.size > 0) this.#send("stats:update", payload);
  }
}

/**
 * Creates the hub of one board.
 *
 * @param source where events and counts come from
 * @param present the board's presenter (formatters, then redaction)
 * @param options intervals and bounds; the defaults suit production
 */
export function createEventHub(
  source: TaskSource,
  present: Presenter,
  options: EventHubOptions = {},
): EventHub {
  return new EventHub(source, present, options);
}
