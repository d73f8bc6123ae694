/**
 * The background pass that keeps the retrying split ({@link RetryingSplit})
 * right: it walks each task's delayed set and reads the state of every
 * member, under a hard budget of Redis commands per second, and only while
 * the board is watched.
 *
 * @module
 */

import { taskKeys } from "../wire/keys.ts";
import { Cadence } from "./cadence.ts";
import type { RedisConnection } from "./client.ts";
import { Pacer } from "./pacer.ts";
import type { RetryingSplit } from "./retrying_split.ts";
import type { Watch } from "./watch.ts";
import type { Timers } from "../../timers.ts";

/** Options of {@link RetryingReconciler}. */
export interface RetryingReconcilerOptions {
  /** taskora's key prefix. */
  prefix?: string;
  /**
   * Redis commands per second a reconcile of a task counted before may
   * spend, counting the commands its scripts run (one ZSCAN and one HGET per
   * member looked at); default 40.
   */
  commandsPerSecond?: number;
  /**
   * The same for the first count of a task (its figure says "not counted
   * yet" until then); default 80.
   */
  firstCommandsPerSecond?: number;
  /** How often it looks for tasks due a reconcile while watched, ms (default 15,000). */
  intervalMs?: number;
  /** A task whose events were not followed is reconciled again after this, ms (default 300,000). */
  staleMs?: number;
  /** A task whose events were followed is reconciled again after this, ms (default 3,600,000). */
  recheckMs?: number;
  /** The clock and timers its passes run on (default the runtime's; tests pass fake ones). */
  timers?: Timers;
  /** Whether this board leads the boards on the keyspace: only the leader reconciles in the background. */
  leads?: () => boolean;
}

/** Members one script call looks at, at most. */
const MAX_STEP = 1000;

/**
 * Reconciles, while the board is watched, every task that is due: never
 * reconciled, estimated (ids past the cap), not exact while events are
 * followed (a pass then makes it exact from then on), reconciled without
 * events followed more than `staleMs` ago, or exact for `recheckMs` (to catch what events cannot
 * show: stream entries trimmed before they were read, hashes deleted by
 * retention). Tasks go one after the other, never reconciled first.
 *
 * Cost: per step, one ZSCAN of the delayed set (every member present for
 * the whole walk comes at least once, however the set changes meanwhile),
 * then one pipeline of `HGET <job> state` for the members it returned: plain
 * reads, no script (a script would be held by `CLIENT PAUSE WRITE` during a
 * failover, and every command behind it on the connection). Paced under
 * `firstCommandsPerSecond` (80) for a task's first count and
 * `commandsPerSecond` (40) for the rechecks after it, so that a watched
 * board (stats frames ~6 commands/s for 20 tasks, the event reader ~1)
 * stays under 100 commands/s even while it counts. A task with D delayed
 * jobs is first counted in D / 80 s (12,500: 2 min 36 s; 250,000 over 20
 * tasks: 52 min, its figure saying "counting…" until then), and rechecked
 * in D / 40 s. `reconcileCommandsPerSecond` raises both for a Redis that
 * can spare more.
 */
export class RetryingReconciler {
  readonly #connection: RedisConnection;
  readonly #split: RetryingSplit;
  readonly #listTasks: () => Promise<string[]>;
  readonly #prefix?: string;
  readonly #pacer: Pacer;
  readonly #firstPacer: Pacer;
  readonly #staleMs: number;
  readonly #recheckMs: number;
  readonly #cadence: Cadence<void>;
  readonly #watch: Watch;
  readonly #leads: () => boolean;
  /** Explicit runs under way: they reconcile whoever leads. */
  #explicit = 0;

  /** Creates the reconciler; it runs at the first wake of `watch`. */
  constructor(
    connection: RedisConnection,
    split: RetryingSplit,
    listTasks: () => Promise<string[]>,
    watch: Watch,
    options: RetryingReconcilerOptions = {},
  ) {
    this.#connection = connection;
    this.#split = split;
    this.#listTasks = listTasks;
    this.#prefix = options.prefix;
    this.#pacer = new Pacer(options.commandsPerSecond ?? 40);
    this.#firstPacer = new Pacer(options.firstCommandsPerSecond ?? 80);
    this.#staleMs = options.staleMs ?? 300_000;
    this.#recheckMs = options.recheckMs ?? 3_600_000;
    this.#watch = watch;
    this.#leads = options.leads ?? (() => true);
    this.#cadence = new Cadence((signal) => this.#pass(signal), watch, {
      minMs: options.intervalMs ?? 15_000,
      factor: 1,
      pacer: this.#pacer,
      startOnWake: true,
      timers: options.timers,
    });
  }

  /** Commands spent so far. */
  get spent(): number {
    return this.#pacer.spent + this.#firstPacer.spent;
  }

  /** Reconciles every due task now (joining a pass under way), leader or not. */
  async run(): Promise<void> {
    this.#explicit++;
    try {
      await this.#cadence.run();
    } finally {
      this.#explicit--;
    }
  }

  /** Stops: no more passes; the one under way is abandoned. */
  async stop(): Promise<void> {
    await this.#cadence.stop();
  }

  #due(task: string, now: number): boolean {
    const at = this.#split.reconciledAt(task);
    if (at === null || this.#split.estimated(task)) return true;
    if (this.#split.live(task)) return now - at >= this.#recheckMs;
    // Reconciled now, while events are followed, the figure stays exact from then on.
    return this.#split.isFollowing || now - at >= this.#staleMs;
  }

  async #pass(signal: AbortSignal): Promise<void> {
    // A follower serves the leader's figures: its own pass would only cost Redis again.
    if (this.#explicit === 0 && !this.#leads()) return;
    const tasks = await this.#listTasks();
    this.#split.retain(tasks);
    const now = Date.now();
    const due = tasks.filter((task) => this.#due(task, now))
      .sort((a, b) => (this.#split.reconciledAt(a) ?? 0) - (this.#split.reconciledAt(b) ?? 0));
    for (const task of due) {
      if (signal.aborted || !this.#watch.watched) return;
      if (this.#explicit === 0 && !this.#leads()) return;
      await this.#reconcile(task, signal);
    }
  }

  async #reconcile(task: string, signal: AbortSignal): Promise<void> {
    const keys = taskKeys(task, this.#prefix);
    const pacer = this.#split.reconciledAt(task) === null ? this.#firstPacer : this.#pacer;
    const step = Math.max(1, Math.min(MAX_STEP, pacer.perSecond - 1));
    const found = new Set<string>();
    let more = 0;
    let cursor = "0";
    this.#split.begin(task);
    try {
      do {
        await pacer.take(1, signal);
        // Nobody looks any more: an idle board spends nothing, the pass resumes at the next wake.
        if (signal.aborted || !this.#watch.watched) return this.#split.abandon(task);
        const [next, flat] = await this.#connection.call<[string, string[]]>(
          ["ZSCAN", keys.delayed, cursor, "COUNT", String(step)],
        );
        const members = flat.filter((_, i) => i % 2 === 0);
        await pacer.take(members.length, signal);
        if (signal.aborted) return this.#split.abandon(task);
        const states = await this.#connection.pipelineSettled(
          members.map((id) => ["HGET", `${keys.jobPrefix}${id}`, "state"]),
        );
        members.forEach((id, i) => {
          if (states[i] !== "retrying" || found.has(id)) return;
          if (found.size < this.#split.room) found.add(id);
          else more++;
        });
        cursor = next;
      } while (cursor !== "0");
      this.#split.finish(task, found, more);
    } catch (error) {
      this.#split.abandon(task);
      throw error;
    }
  }
}
