/**
 * What the parts of the Redis source share (`parts/`): the connection and
 * the key prefix, the wire-version check every read waits for, the
 * background work (discovery, the workflow index, the retrying reconcile,
 * the leadership that runs them), and the small caches the parts feed each
 * other (the ids served lately, the dead-letter groups, the closed minutes
 * of throughput, the finished states of schedules' runs).
 *
 * @module
 */

import { IncompatibleStoreError } from "../../errors.ts";
import type { JobPage } from "../types.ts";
import { RedisConnection } from "./client.ts";
import { DeadLetterGroups, readDeadLetterEntries } from "./dead_letters.ts";
import { DEFAULT_SCANS_PER_SECOND, TaskDiscovery } from "./discovery.ts";
import { RedisEventReader } from "./event_reader.ts";
import { locateJob } from "./locate.ts";
import { checkWireVersion } from "./meta.ts";
import { MigrationWatch } from "./migration_watch.ts";
import { RecentJobIds } from "./recent_job_ids.ts";
import { FinishedStates } from "./job_state_reads.ts";
import { Pacer } from "./pacer.ts";
import { RetryingReconciler } from "./retrying_reconcile.ts";
import { RetryingSplit, type SplitReading } from "./retrying_split.ts";
import { ClosedMinutes } from "./throughput.ts";
import { Watch } from "./watch.ts";
import { WorkflowIndex } from "./workflows.ts";
import { readingUnwatched } from "../unwatched.ts";
import { jobNotFound } from "../refusals.ts";
import type { BoardStore } from "../../store/types.ts";
import { epochClock, pauseOn, type Timers } from "../../timers.ts";
import { Leadership, leaseOf } from "../../leadership.ts";
import {
  decodeRetrying,
  decodeTaskList,
  encodeRetrying,
  encodeTaskList,
  SHARED_RETRYING,
  SHARED_TASKS,
} from "./background_share.ts";
import type { RedisSourceOptions } from "./options.ts";

/** The lease of the source's background work (discovery, the reconcile). */
const BACKGROUND_LEASE = "background";
/** What the leader shares lives this many lease periods unless it shares it again. */
const SHARED_LEASES = 3;

/** How long a failed wire-version check is trusted before Redis is asked again, ms. */
const RECHECK_INCOMPATIBLE_MS = 10_000;

/**
 * The state and the helpers every part of one Redis source works through;
 * `Store`: the board's own store the facade paired with it.
 */
export class RedisContext<Store extends BoardStore = BoardStore> {
  /** The connection every read goes through. */
  readonly connection: RedisConnection;
  /** The configured key prefix, if any. */
  readonly prefix?: string;
  /** The tasks of the keyspace, discovered in the background. */
  readonly discovery: TaskDiscovery;
  /** The workflows of the keyspace, indexed in the background. */
  readonly workflows: WorkflowIndex;
  /** Failed jobs grouped by error, cached a few seconds. */
  readonly deadLetters: DeadLetterGroups;
  /** Throughput minutes that can no longer change, kept. */
  readonly closedMinutes: ClosedMinutes = new ClosedMinutes();
  /** Whether anyone looks at the board: background work runs only then. */
  readonly watch: Watch;
  /** Whether anyone looks at counts (stats, the event stream): the reconcile runs only then. */
  readonly countsWatch: Watch;
  /** Which delayed jobs are retrying, kept from events and reconciles. */
  readonly split: RetryingSplit = new RetryingSplit();
  /** Counts the retrying split again, paced. */
  readonly reconciler: RetryingReconciler;
  /** Job ids this source served lately: what a prefix search looks at. */
  readonly recentIds: RecentJobIds = new RecentJobIds();
  /** taskora's migration lock, watched. */
  readonly migration: MigrationWatch;
  /** Whether this source leads the boards on the keyspace: its background work runs only then. */
  readonly leadership: Leadership;
  /** The board's own state beside this keyspace (its leases and shared results). */
  readonly boardStore: Store;
  /** The finished states of schedules' runs, trusted a minute. */
  readonly finishedStates: FinishedStates;
  readonly #eventRefreshMs: number;
  /** The board's clock: the event reader's gathering pause runs on it. */
  readonly #timers: Timers;
  #wireCheck: Promise<void> | null = null;
  #wire: { ok: true } | { ok: false; error: IncompatibleStoreError; at: number } | null = null;
  readonly #offReconnect: () => void;
  readonly #offTurn: () => void;
  /** The leader's retrying figures as last read while this source followed, or null. */
  #sharedRetrying: Map<string, SplitReading> | null = null;
  /** Whether a figure was asked for since this follower last read the leader's. */
  #retryingAsked = true;
  /** The live event reader, made on first use. */
  #events: RedisEventReader | null = null;

  /**
   * Opens the connection and sets up the background work, on `timers`
   * (tests pass fake ones); see `createRedisSource` for the options. The
   * board's own store on that connection is `storeOn`'s: the facade pairs
   * the two.
   */
  constructor(
    options: RedisSourceOptions,
    timers: Timers,
    storeOn: (connection: RedisConnection) => Store,
  ) {
    // Checked before anything opens a connection, so a bad rate leaves nothing behind.
    for (const name of ["scansPerSecond", "reconcileCommandsPerSecond", "leaseMs"] as const) {
      const rate = options[name];
      if (rate !== undefined && !(Number.isFinite(rate) && rate > 0)) {
        throw new TypeError(`queue-board: ${name} must be a positive number (got ${rate})`);
      }
    }
    this.prefix = options.prefix;
    // On the epoch's clock: when a state was read is said in GET /schedules.
    this.finishedStates = new FinishedStates(epochClock(timers));
    this.#eventRefreshMs = Math.min(options.discoveryIntervalMs ?? 5000, 5000);
    this.#timers = timers;
    this.connection = new RedisConnection({
      url: options.url,
      client: options.client,
      cluster: options.cluster,
      sentinel: options.sentinel,
      commandTimeoutMs: options.commandTimeoutMs,
    });
    this.boardStore = storeOn(this.connection);
    // A reconnection may be to another server: check its wire version again.
    this.#offReconnect = this.connection.onReconnect(() => this.#wire = null);
    // A migrator taking or freeing its lock may change the wire version too.
    this.migration = new MigrationWatch(this.connection, options.prefix, () => this.#wire = null);
    this.watch = new Watch(options.idleAfterMs, () => timers.now());
    this.countsWatch = new Watch(options.idleAfterMs, () => timers.now());
    // Competing only while watched: an idle source sends nothing, not even a renewal.
    this.leadership = new Leadership(leaseOf(this.boardStore, BACKGROUND_LEASE), {
      ttlMs: options.leaseMs,
      keepMs: options.idleAfterMs,
      timers,
    });
    this.#offTurn = this.leadership.onTurn((leads) => void this.#onTurn(leads));
    const leads = () => this.leadership.leads();
    const scans = new Pacer(options.scansPerSecond ?? DEFAULT_SCANS_PER_SECOND);
    this.discovery = new TaskDiscovery(this.connection, {
      prefix: options.prefix,
      tasks: options.tasks,
      intervalMs: options.discoveryIntervalMs,
      known: options.knownTasks,
      watch: this.watch,
      pacer: scans,
      timers,
      shared: {
        // Never starts competing: a pass may run in a request, and a lease write queued before
        // its reads would hold them while Redis pauses writes (a failover). The reconcile's
        // background passes start it.
        leads: () => this.leadership.isLeading,
        read: async () => decodeTaskList(await this.boardStore.readSharedResult(SHARED_TASKS)),
      },
    });
    this.workflows = new WorkflowIndex(this.connection, {
      prefix: options.prefix,
      intervalMs: options.discoveryIntervalMs,
      watch: this.watch,
      pacer: scans,
      timers,
    });
    this.reconciler = new RetryingReconciler(
      this.connection,
      this.split,
      () => this.discovery.list(),
      this.countsWatch,
      {
        prefix: options.prefix,
        commandsPerSecond: options.reconcileCommandsPerSecond,
        firstCommandsPerSecond: options.reconcileCommandsPerSecond,
        timers,
        leads,
      },
    );
    this.deadLetters = new DeadLetterGroups(async (task) =>
      readDeadLetterEntries(
        this.connection,
        task ? [task] : await this.discovery.list(),
        this.prefix,
      )
    );
  }

  /** Resolves when Redis is reachable and its keyspace is one we read. */
  async ready(): Promise<void> {
    if (this.lookedAt(this.watch)) {
      // Looked at: keep competing (the background passes that ask may be minutes apart).
      this.leadership.keep();
    }
    await this.connection.ready();
    const verdict = this.#wire;
    if (verdict?.ok) return;
    if (verdict && Date.now() - verdict.at < RECHECK_INCOMPATIBLE_MS) throw verdict.error;
    this.#wireCheck ??= checkWireVersion(this.connection, this.prefix)
      .then(
        () => void (this.#wire = { ok: true }),
        (error) => {
          if (!(error instanceof IncompatibleStoreError)) throw error;
          this.#wire = { ok: false, error, at: Date.now() };
        },
      )
      .finally(() => this.#wireCheck = null);
    await this.#wireCheck;
    if (this.#wire && !this.#wire.ok) throw this.#wire.error;
  }

  /**
   * Notes on `watch` that someone looks at the board, unless the read under
   * way is one the board makes of its own accord (see `../unwatched.ts`);
   * says whether it noted it.
   */
  lookedAt(watch: Watch): boolean {
    if (readingUnwatched()) return false;
    watch.touch();
    return true;
  }

  /** Remembers the jobs of a page for the search by the start of an id, and passes the page on. */
  served(page: JobPage): JobPage {
    this.recentIds.note(page.jobs);
    return page;
  }

  /**
   * A task's retrying figure: the leader's, as it shared it last, while this
   * source follows; else its own split's, or, until this new leader has
   * counted the task, the figure the last leader shared (with its asOf).
   */
  retrying(task: string): SplitReading {
    this.#retryingAsked = true;
    const shared = this.#sharedRetrying?.get(task);
    if (!shared) return this.split.read(task);
    if (!this.leadership.isLeading) return shared;
    const own = this.split.read(task);
    return own.asOf === null ? shared : own;
  }

  /** At each turn of the lease: the leader shares its results, a follower reads them. */
  async #onTurn(leads: boolean): Promise<void> {
    try {
      if (!leads) {
        // Only when a figure was asked since the last read (a board that serves the live state
        // asks none): until the next turn, one asked after a quiet while is the one read last,
        // with its asOf. Before, a GET at every turn, 0.12 commands/s of every follower.
        if (!this.#retryingAsked) return;
        // Nothing shared (the leader just went away): the last figures stay, with their asOf.
        const shared = decodeRetrying(await this.boardStore.readSharedResult(SHARED_RETRYING));
        this.#retryingAsked = false;
        this.#sharedRetrying = shared ?? this.#sharedRetrying;
        return;
      }
      const list = this.discovery.snapshot;
      if (!list) return;
      const ttlMs = SHARED_LEASES * this.leadership.ttlMs;
      const figures = new Map(list.tasks.map((task) => [task, this.retrying(task)]));
      await Promise.all([
        this.boardStore.shareResult(SHARED_TASKS, encodeTaskList(list), ttlMs),
        this.boardStore.shareResult(SHARED_RETRYING, encodeRetrying(figures), ttlMs),
      ]);
    } catch {
      // Redis did not answer: the next turn shares or reads again.
    }
  }

  /**
   * The task holding a job: one pipelined lookup over the known tasks, and
   * when the id is in none of them, one more over the tasks a rediscovery
   * finds (at most one rediscovery a second). `JOB_NOT_FOUND` when no task
   * has it.
   */
  async taskOfJob(jobId: string): Promise<string> {
    const known = await this.discovery.list();
    let task = await locateJob(this.connection, known, jobId, this.prefix);
    if (task === null) {
      const fresh = (await this.discovery.refreshOnMiss() ?? []).filter((t) => !known.includes(t));
      task = await locateJob(this.connection, fresh, jobId, this.prefix);
    }
    if (task === null) throw jobNotFound(jobId);
    return task;
  }

  /** The live event reader, made on first use. */
  eventReader(): RedisEventReader {
    // The reader's periodic "refresh" reads the cached list: discovery's own
    // cadence keeps it fresh, so following events adds no SCAN of its own.
    const topology = this.connection.topology;
    this.#events ??= new RedisEventReader({
      createClient: topology.sharded ? null : () => topology.blockingClient()!,
      pipeline: (commands) => this.connection.pipeline(commands),
      listTasks: () => this.discovery.list(),
      refreshTasks: () => this.discovery.list(),
      gather: (ms, signal) => pauseOn(this.#timers, ms, signal),
    }, { prefix: this.prefix, refreshMs: this.#eventRefreshMs });
    return this.#events;
  }

  /** Blocking connections the live event reader holds (0 or 1). */
  get eventConnections(): number {
    return this.#events?.connections ?? 0;
  }

  /** Reconciles the retrying split of every due task now (under its budget). */
  async reconcileNow(): Promise<void> {
    await this.ready();
    // Whoever asks watches until it is done: a long count is not abandoned as idle halfway.
    const release = this.countsWatch.hold();
    try {
      await this.reconciler.run();
    } finally {
      release();
    }
  }

  /** Stops background work and closes the client if the source created it. */
  async close(): Promise<void> {
    this.#offReconnect();
    this.#offTurn();
    this.migration.close();
    await this.#events?.close();
    await Promise.all([
      this.reconciler.stop(),
      this.discovery.stop(),
      this.workflows.stop(),
      this.deadLetters.settle(),
    ]);
    // What a leader going away shared goes with it: no follower serves it as fresh.
    if (this.leadership.isLeading) {
      await Promise.all(
        [SHARED_TASKS, SHARED_RETRYING].map((name) =>
          this.boardStore.removeSharedResult(name).catch(() => {})
        ),
      );
    }
    await this.leadership.close();
    await this.connection.close();
  }
}
