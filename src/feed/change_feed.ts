/**
 * The change feed: the board's one source of "what changed". The board
 * that leads (the one {@link Leadership} lease) tails every task's events
 * stream from the last ids saved in the board's store, hands each read's
 * entries to its consumers as one batch, and between batches gives each
 * consumer a paced pass (`passMs`) for work that follows the clock rather
 * than the events: the live state's sweep and its re-reads, for one.
 *
 * The ids saved are never ahead of what the consumers kept: after every
 * consumer's pass resolved, the feed saves the ids of the batches taken
 * before that pass began (a pass keeps in the store what those told: the
 * live state's rows), but a task's a consumer's pass left for a later one
 * (`unkept`), and at a stop nothing more. So a new leader, or this
 * board's feed started again after its need lapsed, resumes from ids whose
 * every later entry it reads again: a consumer may see a batch again (at
 * most a pass's worth: consumers are idempotent), and the live state learns
 * exactly which tasks moved meanwhile (`live_state.ts`). When a consumer
 * took back what those entries tell (the live state's rows), the run's
 * passes wait for its tail's first read that reached the end of every
 * stream, so the first pass after a resume knows every task that moved
 * while none ran; else they run at once, beside the reading of a backlog.
 *
 * It runs only while someone needs it: a browser's event stream, an
 * overview or a scrape on any replica ({@link ChangeFeed.need}, noted in
 * the store with a TTL so the leader sees a follower's need), or a consumer
 * that always does (the history recorder, when on). With no need, the
 * board sends nothing for it; the leader checks the store's need once per
 * lease turn (one EXISTS beside the renewal) only while something keeps it
 * competing.
 *
 * Sources that cannot tail their streams from an id (the memory source)
 * feed it from their live events, from when it started; it saves no ids then.
 *
 * @module
 */

import type { Leadership } from "../leadership.ts";
import type { EventBatch, TaskEvent, TaskSource } from "../source/types.ts";
import type { FeedPositions, FeedStore } from "../store/feed.ts";
import { settledWithin, type TimerId, type Timers } from "../timers.ts";

/** What takes the feed's batches. */
export interface FeedConsumer {
  /**
   * Takes one batch, in order. The same entries may come again after a
   * leader change (the ids are saved after every consumer took them).
   */
  take(batch: EventBatch): void | Promise<void>;
  /**
   * Paced work between batches, every `passMs` while the feed runs. Once it
   * resolves, what the batches taken before it began told is kept (the feed
   * then saves their ids): a consumer that keeps nothing in a pass keeps all
   * in `take`.
   */
  pass?(): Promise<void>;
  /**
   * The tasks whose entries its last pass left for a later one (the live
   * state's tasks read too recently to read again): the feed saves no id
   * past them until a pass kept them, so a new leader reads them again.
   */
  unkept?(): Iterable<string>;
  /**
   * The feed starts (this board leads and someone needs it): read what was
   * kept. `positions`: the saved ids it resumes each task's stream from
   * (every later entry comes again); absent when it cannot resume (a source
   * without stream ids): then only what comes from now on. True when what it
   * took back holds until the entries since those ids tell otherwise: the
   * run's passes then wait until its tail caught up with them.
   */
  started?(positions?: FeedPositions): Promise<boolean | void>;
  /** The feed stopped: what was kept in memory may be stale by the next start. */
  stopped?(): void;
}

/** What {@link ChangeFeed} needs. */
export interface ChangeFeedOptions {
  /** Where the streams are read. */
  source: TaskSource;
  /** Where the last ids and the need live. */
  store: FeedStore;
  /** Only the leader runs the feed. */
  leadership: Leadership;
  /** The clock and timers of the passes and of the need. */
  timers: Timers;
  /** Who takes the batches. */
  consumers: readonly FeedConsumer[];
  /** Whether a consumer on this board always needs the feed (the history recorder, when on). */
  alwaysNeeded?: boolean;
  /**
   * Whether a task with no saved id is read from the first entry its
   * stream still holds rather than from the feed's start: the history's
   * backfill on its first start.
   */
  backfill?: boolean;
  /** How often consumers get a pass, ms (default 1000). */
  passMs?: number;
  /** How long one {@link ChangeFeed.need} lasts, ms (default 30,000). */
  needMs?: number;
}

/** What a wait for the feed's first pass found (see {@link ChangeFeed.firstPass}). */
export interface FirstPassWait {
  /** How long ago the feed started on this board, ms: what its passes wrote is at most that old. */
  ageMs: number;
  /** Whether its first pass ended within the wait (else it still runs). */
  ended: boolean;
}

/** A running tail: how to stop it and when it ended. */
interface Run {
  stop: AbortController;
  /** Settles once every consumer started: passes wait for it. */
  ready: Promise<void>;
  /**
   * Whether a read reached the end of every stream, or no consumer took
   * back anything that waits for it: passes before then do nothing (a pass
   * checks the need all the same), so that none writes what a resumed tail
   * has not told yet.
   */
  caughtUp: () => boolean;
  /** Settles once the first pass ended (the live state holds every task by then). */
  firstPass: Promise<void>;
  /** When it started (the timers' clock): what its passes write is as of then or later. */
  startedAt: number;
  done: Promise<void>;
  timer: TimerId;
}

/** The change feed of one board; see the module documentation. */
export class ChangeFeed {
  readonly #options: ChangeFeedOptions;
  readonly #passMs: number;
  readonly #needMs: number;
  readonly #offTurn: () => void;
  #neededUntil = -Infinity;
  #notedAt = -Infinity;
  /** When the store's need was last read, and what it said. */
  #checkedAt = -Infinity;
  #storeNeeds = false;
  #run: Run | null = null;
  /** The decisions (start or stop) under way and waiting, each after the one before. */
  #turning: Promise<void> = Promise.resolve();
  /** Whether a decision waits behind the one under way: then no other joins it. */
  #decisionWaits = false;
  #passing: Promise<void> | null = null;
  /** Whether the last pass failed (its error was said). */
  #failing = false;
  /** Tasks whose ids are saved, to drop those of tasks gone. */
  #saved = new Set<string>();
  /**
   * Ids every consumer took and not saved yet, and the tasks gone: saved
   * once a pass, not after every batch. A busy feed's blocking read returns
   * a batch every few ms, and each batch's HSET was about 10 commands/s of
   * an open browser at 10 tasks moving. Dropped at a stop: the next run
   * reads them again (see the module documentation).
   */
  #unsaved = new Map<string, string>();
  #gone = new Set<string>();
  #closed = false;

  /** Creates the feed; it starts at a lease turn that finds this board leading and a need. */
  constructor(options: ChangeFeedOptions) {
    this.#options = options;
    this.#passMs = options.passMs ?? 1000;
    this.#needMs = options.needMs ?? 30_000;
    this.#offTurn = options.leadership.onTurn(() => void this.#decide());
    if (options.alwaysNeeded) this.#ask();
  }

  /** Whether the feed runs on this board now. */
  get running(): boolean {
    return this.#run !== null;
  }

  /**
   * Waits, at most `limitMs`, until the feed's first pass on this board has
   * ended when it runs here: a just-started (or long unasked) board first
   * learns whether it leads (the lease take under way), and the leader then
   * answers its first page or scrape from that one pass rather than reading
   * every task on the request path. Null when the feed does not run here
   * (at once on a follower).
   */
  async firstPass(limitMs: number): Promise<FirstPassWait | null> {
    const { timers, leadership } = this.#options;
    const passed = (async () => {
      await leadership.turnSettled();
      await this.#turning;
      await this.#run?.firstPass;
    })();
    const ended = await settledWithin(timers, passed, limitMs);
    return this.#run === null ? null : { ageMs: timers.now() - this.#run.startedAt, ended };
  }

  /**
   * Someone on this board needs the feed (a browser is connected, an
   * overview was asked): keeps this board competing for the lease, and
   * notes the need in the store (at most once a third of `needMs`) so
   * that the leader, wherever it is, runs the feed.
   */
  need(): void {
    const { timers, store } = this.#options;
    const now = timers.now();
    this.#neededUntil = now + this.#needMs;
    this.#ask();
    if (now - this.#notedAt < this.#needMs / 3) return;
    this.#notedAt = now;
    store.noteFeedDemand(this.#needMs).catch(() => this.#notedAt = -Infinity);
  }

  /** Stops the feed and its passes; waits for what runs. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#offTurn();
    await this.#serially(() => this.#stop());
  }

  /** Keeps this board competing; one that leads already (or always: no lease) starts at once. */
  #ask(): void {
    const { leadership } = this.#options;
    if (leadership.leads() && this.#run === null) void this.#decide();
  }

  /**
   * Runs `step` once the decisions before it ended, so that a start never
   * overlaps a stop still waiting for its run to end: the stop told the
   * consumers `stopped` after the new run's `started` (the live state forgot
   * what it had just read, and counted "none taken" from the restart), and
   * two runs tailed meanwhile.
   */
  #serially(step: () => Promise<void>): Promise<void> {
    const next = this.#turning.then(step);
    // A decision that failed holds up none after it.
    this.#turning = next.catch(() => {});
    return next;
  }

  /**
   * Decides whether to run (at a lease turn, a pass that found no need, a
   * need), after the decision under way: one waits at most, and reads
   * whether this board leads when its turn comes.
   */
  #decide(): Promise<void> {
    if (this.#decisionWaits) return this.#turning;
    this.#decisionWaits = true;
    return this.#serially(() => {
      this.#decisionWaits = false;
      return this.#turn(this.#options.leadership.isLeading);
    });
  }

  /**
   * At each lease turn and each pass: run while leading and needed, stop
   * otherwise. The store's need is read at most once a third of `needMs`.
   */
  async #turn(leads: boolean): Promise<void> {
    if (!await this.#shouldRun(leads)) return await this.#stop();
    if (this.#run === null && !this.#closed) this.#start();
  }

  /** Whether the feed should run on this board now (a need elsewhere keeps it competing). */
  async #shouldRun(leads: boolean): Promise<boolean> {
    const { timers, store, alwaysNeeded, leadership } = this.#options;
    if (this.#closed) return false;
    // A follower whose feed is always needed (the history's) keeps asking, or it would stop
    // competing a lease period after its start and never take over from a leader that dies.
    if (!leads) {
      if (alwaysNeeded) leadership.leads();
      return false;
    }
    const now = timers.now();
    if (!alwaysNeeded && now >= this.#neededUntil && now - this.#checkedAt >= this.#needMs / 3) {
      this.#checkedAt = now;
      this.#storeNeeds = await store.hasFeedDemand().catch(() => this.#run !== null);
    }
    const needed = alwaysNeeded || timers.now() < this.#neededUntil || this.#storeNeeds;
    if (needed) leadership.leads();
    return needed;
  }

  #start(): void {
    const { timers, source, store } = this.#options;
    const stop = new AbortController();
    const timer = timers.setInterval(() => void this.#pass(), this.#passMs);
    timers.unref(timer);
    const caught = Promise.withResolvers<void>();
    let caughtUp = false;
    const ready = (async () => {
      const positions = source.tailEvents ? await store.readFeedPositions() : undefined;
      let resumed = false;
      for (const consumer of this.#options.consumers) {
        if (await consumer.started?.(positions)) resumed = true;
      }
      // Nothing taken back: the passes need not wait for a backlog (a long lapse's) to be read.
      if (!resumed) caught.resolve();
      return positions;
    })();
    const follow = (positions: Map<string, string> | undefined) =>
      this.#follow(stop.signal, positions, () => caught.resolve());
    const done = ready.then(follow).catch((error) => {
      if (stop.signal.aborted) return;
      // Redis away at the start: the next turn starts again.
      console.error("queue-board: the change feed stopped", error);
      void this.#serially(async () => {
        if (this.#run?.stop === stop) await this.#stop();
      });
    });
    const started = ready.then(() => {}, () => {});
    // The first pass as soon as the tail caught up, not a pass period later: a just-started
    // board's first page waits for it (see `firstPass`).
    void caught.promise.then(() => caughtUp = true);
    const firstPass = Promise.race([caught.promise, done]).then(async () => {
      // A pass under way may have begun before the tail caught up, and done nothing.
      await this.#passing;
      await this.#pass();
    });
    this.#run = {
      stop,
      timer,
      ready: started,
      caughtUp: () => caughtUp,
      firstPass,
      done,
      startedAt: timers.now(),
    };
  }

  async #stop(): Promise<void> {
    const run = this.#run;
    if (run === null) return;
    this.#run = null;
    this.#options.timers.clearInterval(run.timer);
    run.stop.abort();
    await run.done;
    await this.#passing;
    // Not saved: taken since the last pass began, what they told is not kept yet.
    this.#unsaved.clear();
    this.#gone.clear();
    for (const consumer of this.#options.consumers) consumer.stopped?.();
  }

  /** Gives each consumer its pass, one pass at a time, while this board leads and someone needs it. */
  #pass(): Promise<void> {
    let stop = false;
    this.#passing ??= (async () => {
      stop = !await this.#shouldRun(this.#options.leadership.isLeading);
      const run = this.#run;
      if (stop || run === null || !run.caughtUp()) return;
      await run.ready;
      // What the consumers' passes keep: the batches taken before they begin.
      const covered = { positions: new Map(this.#unsaved), gone: new Set(this.#gone) };
      let failed = false;
      for (const consumer of this.#options.consumers) {
        await consumer.pass?.().catch((error) => {
          // Said once per outage, not once a second.
          if (!this.#failing) {
            console.error("queue-board: a change feed consumer's pass failed", error);
          }
          failed = true;
        });
      }
      // A consumer that failed kept nothing: saved once a pass succeeds. A save that failed: the
      // next pass saves them.
      if (!failed) {
        for (const consumer of this.#options.consumers) {
          for (const task of consumer.unkept?.() ?? []) covered.positions.delete(task);
        }
        await this.#savePositions(covered).catch(() => {});
      }
      this.#failing = failed;
    })().finally(() => {
      this.#passing = null;
      // Decided again with the others: a need may have come since this pass looked.
      if (stop) void this.#decide();
    });
    return this.#passing;
  }

  /**
   * Tails the streams from the saved `positions` until `signal` aborts;
   * `caughtUp` once a read reached the end of every stream.
   */
  async #follow(
    signal: AbortSignal,
    positions: Map<string, string> | undefined,
    caughtUp: () => void,
  ): Promise<void> {
    const { source } = this.#options;
    if (!source.tailEvents || !positions) {
      // Its live events from now on: nothing written before to catch up with.
      caughtUp();
      return await this.#followLive(signal);
    }
    const from = new Map(positions);
    this.#saved = new Set(from.keys());
    if (this.#options.backfill) {
      // What taskora's streams still hold of a task the feed never read (the history's first
      // start): from their first entry, not from now.
      for (const task of await source.listTasks()) if (!from.has(task)) from.set(task, "0-0");
    }
    await source.tailEvents(from, async (batch) => {
      await this.#deliver(batch);
      if (batch.caughtUp) caughtUp();
    }, signal);
  }

  /** Hands a batch to every consumer, then notes its ids (and the tasks gone) for the pass to save. */
  async #deliver(batch: EventBatch): Promise<void> {
    for (const consumer of this.#options.consumers) await consumer.take(batch);
    const present = new Set(batch.tasks);
    // A read of no stream (none discovered yet) says nothing of which tasks are gone.
    for (const task of present.size === 0 ? [] : [...this.#saved, ...this.#unsaved.keys()]) {
      if (present.has(task)) continue;
      this.#gone.add(task);
      this.#unsaved.delete(task);
    }
    for (const [task, id] of batch.positions) {
      this.#unsaved.set(task, id);
      this.#gone.delete(task);
    }
  }

  /**
   * Saves `covered`'s ids and drops the ids of its tasks gone; what was
   * taken since stays for the next save.
   */
  async #savePositions(
    covered: { positions: Map<string, string>; gone: Set<string> },
  ): Promise<void> {
    const { positions, gone } = covered;
    if (positions.size === 0 && gone.size === 0) return;
    await this.#options.store.saveFeedPositions(positions, [...gone]);
    for (const [task, id] of positions) {
      if (this.#unsaved.get(task) === id) this.#unsaved.delete(task);
      this.#saved.add(task);
    }
    for (const task of gone) {
      if (this.#gone.delete(task)) this.#saved.delete(task);
    }
  }

  /** A source without stream ids: its live events, one batch per pass. */
  async #followLive(signal: AbortSignal): Promise<void> {
    const { source, timers } = this.#options;
    let events: TaskEvent[] = [];
    const off = source.subscribe((event) => events.push(event));
    const timer = timers.setInterval(async () => {
      const batch = events;
      events = [];
      // A source that does not answer (the pass says so): its events go with the next batch.
      const tasks = await source.listTasks().catch(() => null);
      if (tasks === null) return void (events = [...batch, ...events]);
      await this.#deliver({
        events: batch,
        positions: new Map(),
        tasks,
        trimmed: [],
        caughtUp: true,
      })
        .catch(() => {});
    }, this.#passMs);
    if (!signal.aborted) {
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
    }
    timers.clearInterval(timer);
    off();
  }
}
