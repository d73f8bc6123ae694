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
   * member looked at); default {@link DEFAULT_RECONCILE_COMMANDS_PER_SECOND}.
   */
  commandsPerSecond?: number;
  /**
   * The same for the first count of a task (its figure says "not counted
   * yet" until then); default {@link DEFAULT_RECONCILE_COMMANDS_PER_SECOND}.
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
 * Members one step looks at, at least: a step of a budget's second (its
 * budget less the ZSCAN) was one member at 2 commands/s, a ZSCAN per HGET,
 * half of the budget spent on walking. The budget still holds on average:
 * a larger step waits for its commands after it.
 */
const MIN_STEP = 20;

/**
 * What the reconcile spends by default, commands per second, first counts
 * and rechecks alike: half of the 4 the leader's background reads spend
 * together, the live state's sweep the other half (`src/feed/live_state.ts`).
 * Issue 35 wants an open browser at 1,000 tasks to cost at most 10
 * commands/s with nothing moving, and an idle board the same in the minute
 * after a request; at 40 (first counts) the reconcile alone cost 35–40 of
 * them for the first minutes of every board, and at 4 beside the sweep's 4
 * the browser still cost 13.5 (`tests/bench/open_browser.ts`,
 * `idle_board.ts`).
 */
export const DEFAULT_RECONCILE_COMMANDS_PER_SECOND = 2;

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
 * `firstCommandsPerSecond` for a task's first count and
 * `commandsPerSecond` for the rechecks after it, both
 * {@link DEFAULT_RECONCILE_COMMANDS_PER_SECOND} (2) by default. Only the
 * leader of the boards on a keyspace reconciles. A task with D delayed jobs
 * is first counted in D / 2 s (1,000 tasks of 8: 75 min; 12,500: 104 min;
 * 250,000 over 20 tasks: 35 h, its figure saying "counting…" until then; at
 * 40 a second, before, a twentieth of that), and rechecked in as long.
 * `reconcileCommandsPerSecond` raises both for a Redis that can spare more.
 * An explicit {@link RetryingReconciler.run} (tests, tools) is not paced:
 * whoever asks waits for it.
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
    this.#pacer = new Pacer(options.commandsPerSecond ?? DEFAULT_RECONCILE_COMMANDS_PER_SECOND);
    this.#firstPacer = new Pacer(
      options.firstCommandsPerSecond ?? DEFAULT_RECONCILE_COMMANDS_PER_SECOND,
    );
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

  /** Reconciles every due task now (joining a pass under way, unpaced from then on), leader or not. */
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

  /** Whether this pass may go on: an explicit run, or this board leads. */
  #leading(): boolean {
    return this.#explicit > 0 || this.#leads();
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
    if (!this.#leading()) return;
    const tasks = await this.#listTasks();
    this.#split.retain(tasks);
    const now = Date.now();
    const due = tasks.filter((task) => this.#due(task, now))
      .sort((a, b) => (this.#split.reconciledAt(a) ?? 0) - (this.#split.reconciledAt(b) ?? 0));
    for (const task of due) {
      if (signal.aborted || !this.#watch.watched) return;
      if (!this.#leading()) return;
      await this.#reconcile(task, signal);
    }
  }

  /** Waits for `cost` of the budget; an explicit run under way only counts it (see {@link run}). */
  async #spend(pacer: Pacer, cost: number, signal: AbortSignal): Promise<void> {
    if (this.#explicit > 0) return pacer.charge(cost);
    await pacer.take(cost, signal);
  }

  async #reconcile(task: string, signal: AbortSignal): Promise<void> {
    const keys = taskKeys(task, this.#prefix);
    const pacer = this.#split.reconciledAt(task) === null ? this.#firstPacer : this.#pacer;
    const step = Math.min(MAX_STEP, Math.max(MIN_STEP, pacer.perSecond - 1));
    const found = new Set<string>();
    let more = 0;
    let cursor = "0";
    this.#split.begin(task);
    try {
      do {
        await this.#spend(pacer, 1, signal);
        // Nobody looks any more: an idle board spends nothing, the pass resumes at the next wake.
        if (signal.aborted || !this.#watch.watched) return this.#split.abandon(task);
        // Asked at every step (it also keeps the lease): a first count lasts minutes, and
        // another board that took the lease meanwhile counts it instead.
        if (!this.#leading()) return this.#split.abandon(task);
        const [next, flat] = await this.#connection.call<[string, string[]]>(
          ["ZSCAN", keys.delayed, cursor, "COUNT", String(step)],
        );
        const members = flat.filter((_, i) => i % 2 === 0);
        await this.#spend(pacer, members.length, signal);
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
